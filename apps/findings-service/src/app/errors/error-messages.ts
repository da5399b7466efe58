import { ErrorCode } from './error-codes';

export type Locale = 'en' | 'ru';
export const LOCALES: readonly Locale[] = ['en', 'ru'];

/** Localized message per error code. The `error` field of every error body comes from here. */
export const ERROR_MESSAGES: Record<ErrorCode, Record<Locale, string>> = {
  bad_request: { en: 'bad request', ru: 'некорректный запрос' },
  validation_failed: { en: 'request validation failed', ru: 'запрос не прошёл проверку' },
  body_too_deep: {
    en: 'request body is nested deeper than {max_depth} levels',
    ru: 'тело запроса вложено глубже {max_depth} уровней',
  },
  body_too_wide: {
    en: 'an object or array in the request body has more than {max_members} members',
    ru: 'объект или массив в теле запроса содержит больше {max_members} элементов',
  },
  unauthorized: { en: 'authentication required', ru: 'требуется аутентификация' },
  forbidden: { en: 'forbidden', ru: 'доступ запрещён' },
  not_found: { en: 'not found', ru: 'не найдено' },
  method_not_allowed: { en: 'method not allowed', ru: 'метод не поддерживается' },
  not_acceptable: { en: 'not acceptable', ru: 'неприемлемый формат ответа' },
  conflict: { en: 'conflict', ru: 'конфликт' },
  request_timeout: { en: 'request not received in time', ru: 'запрос не получен вовремя' },
  payload_too_large: { en: 'request body too large', ru: 'тело запроса слишком велико' },
  headers_too_large: {
    en: 'request line and headers exceed 16 KiB',
    ru: 'строка запроса и заголовки длиннее 16 КиБ',
  },
  unsupported_media_type: {
    en: 'unsupported media type',
    ru: 'неподдерживаемый тип содержимого',
  },
  unprocessable_entity: {
    en: 'request cannot be processed in the current state',
    ru: 'запрос невозможно выполнить в текущем состоянии',
  },
  rate_limited: { en: 'too many requests', ru: 'слишком много запросов' },
  internal_error: { en: 'internal error', ru: 'внутренняя ошибка' },
  service_unavailable: { en: 'service unavailable', ru: 'сервис недоступен' },
  authentication_required: { en: 'authentication required', ru: 'требуется аутентификация' },
  invalid_token: {
    en: 'access token is invalid or expired',
    ru: 'токен доступа недействителен или истёк',
  },
  download_link_invalid: {
    en: 'the download link was already used, has expired or is unknown; start the download again',
    ru: 'ссылка для скачивания уже использована, истекла или неизвестна; начните скачивание заново',
  },
  invalid_api_key: {
    en: 'API key is invalid or revoked',
    ru: 'ключ API недействителен или отозван',
  },
  invalid_credentials: { en: 'invalid login or password', ru: 'неверный логин или пароль' },
  refresh_token_invalid: {
    en: 'refresh token is invalid or expired',
    ru: 'токен обновления недействителен или истёк',
  },
  refresh_token_reused: {
    en: 'refresh token was already used; all sessions of this login were revoked',
    ru: 'токен обновления уже использован; все сеансы этого входа отозваны',
  },
  access_denied: { en: 'access denied', ru: 'доступ запрещён' },
  permission_denied: {
    en: 'the caller lacks the required permission',
    ru: 'у вызывающего нет необходимого разрешения',
  },
  access_undeclared: {
    en: 'route has no access declaration',
    ru: 'для маршрута не объявлены правила доступа',
  },
  local_auth_disabled: {
    en: 'local login is disabled',
    ru: 'локальный вход отключён',
  },
  sso_provider_unknown: {
    en: 'no single sign-on provider of this name is configured',
    ru: 'поставщик единого входа с таким именем не настроен',
  },
  sso_state_invalid: {
    en: 'the sign-in is unknown, expired or already completed; start it again',
    ru: 'вход неизвестен, просрочен или уже завершён; начните его заново',
  },
  sso_redirect_uri_invalid: {
    en: 'redirect_uri must be a loopback address: http://127.0.0.1:<port>/<path> or http://[::1]:<port>/<path>',
    ru: 'redirect_uri должен быть адресом обратной петли: http://127.0.0.1:<порт>/<путь> или http://[::1]:<порт>/<путь>',
  },
  sso_provider_refused: {
    en: 'the identity provider refused the sign-in',
    ru: 'поставщик удостоверений отказал во входе',
  },
  sso_id_token_invalid: {
    en: 'the identity provider returned an invalid ID token',
    ru: 'поставщик удостоверений вернул недействительный ID-токен',
  },
  sso_email_missing: {
    en: 'the identity provider did not share an e-mail address',
    ru: 'поставщик удостоверений не передал адрес e-mail',
  },
  sso_email_unverified: {
    en: 'the identity provider has not verified the e-mail address',
    ru: 'поставщик удостоверений не подтвердил адрес e-mail',
  },
  sso_provider_unavailable: {
    en: 'the identity provider cannot be reached',
    ru: 'поставщик удостоверений недоступен',
  },
  user_exists: {
    en: 'a user with this email exists',
    ru: 'пользователь с таким e-mail уже существует',
  },
  user_not_found: { en: 'user not found', ru: 'пользователь не найден' },
  user_is_self: {
    en: 'you cannot disable or delete your own account',
    ru: 'нельзя отключить или удалить собственную учётную запись',
  },
  user_last_admin: {
    en: 'this is the last active administrator; make another user an administrator first',
    ru: 'это последний активный администратор; сначала назначьте администратором другого пользователя',
  },
  user_configured_admin: {
    en: 'this is the configured local administrator (LOCAL_ADMIN_EMAIL); remove it from the configuration first',
    ru: 'это локальный администратор из конфигурации (LOCAL_ADMIN_EMAIL); сначала уберите его из конфигурации',
  },
  service_account_not_found: {
    en: 'service account not found',
    ru: 'сервисная учётная запись не найдена',
  },
  service_account_revoked: {
    en: 'service account is revoked',
    ru: 'сервисная учётная запись отозвана',
  },
  permission_not_found: { en: 'permission grant not found', ru: 'разрешение не найдено' },
  permission_level_invalid: {
    en: 'this permission cannot be granted at this level',
    ru: 'это разрешение нельзя выдать на этом уровне',
  },
  permission_scope_invalid: {
    en: 'the level needs exactly its own scope identifier (project_id for project, product_id for product, none for global)',
    ru: 'уровню нужен ровно свой идентификатор области (project_id для project, product_id для product, ничего для global)',
  },
  permission_expiry_required: {
    en: 'a global write_findings grant requires expires_at',
    ru: 'глобальное разрешение write_findings требует expires_at',
  },
  permission_expiry_in_past: {
    en: 'expires_at must be in the future',
    ru: 'expires_at должен быть в будущем',
  },
  project_not_found: { en: 'project not found', ru: 'проект не найден' },
  product_not_found: { en: 'product not found', ru: 'продукт не найден' },
  product_exists: {
    en: 'a product with this name exists in the project',
    ru: 'продукт с таким именем уже есть в проекте',
  },
  member_not_found: { en: 'project member not found', ru: 'участник проекта не найден' },
  repository_url_invalid: {
    en: 'repository_url is not a repository address',
    ru: 'repository_url не является адресом репозитория',
  },
  report_not_found: { en: 'report not found', ru: 'отчёт не найден' },
  report_file_missing: {
    en: 'the multipart field "file" is missing',
    ru: 'в запросе нет поля "file"',
  },
  report_extension_refused: {
    en: 'only .sarif and .json report files are accepted',
    ru: 'принимаются только файлы отчётов .sarif и .json',
  },
  report_archive_refused: {
    en: 'archives are not accepted as reports',
    ru: 'архивы не принимаются в качестве отчётов',
  },
  report_too_large: {
    en: 'the report is larger than allowed (REPORT_MAX_BYTES)',
    ru: 'отчёт больше допустимого размера (REPORT_MAX_BYTES)',
  },
  multipart_malformed: {
    en: 'the multipart/form-data body is malformed or incomplete',
    ru: 'тело multipart/form-data повреждено или не завершено',
  },
  multipart_boundary_missing: {
    en: 'the multipart/form-data Content-Type has no boundary',
    ru: 'в Content-Type multipart/form-data не указан boundary',
  },
  upload_too_many_files: {
    en: 'an upload carries exactly one file part, named "file"',
    ru: 'загрузка содержит ровно один файл в поле "file"',
  },
  upload_too_many_parts: {
    en: 'the multipart/form-data body has more parts than an upload takes',
    ru: 'в теле multipart/form-data больше частей, чем допускает загрузка',
  },
  invalid_filename: {
    en: 'the file name must be 1-255 characters without control characters',
    ru: 'имя файла должно содержать от 1 до 255 символов без управляющих символов',
  },
  queue_unavailable: {
    en: 'job queue unavailable, try again later',
    ru: 'очередь задач недоступна, повторите позже',
  },
  job_not_found: { en: 'job not found', ru: 'задача не найдена' },
  job_not_retryable: {
    en: 'only a failed job can be retried',
    ru: 'повторить можно только завершившуюся ошибкой задачу',
  },
  job_not_cancellable: {
    en: 'the job has already finished',
    ru: 'задача уже завершена',
  },
  finding_not_found: { en: 'finding not found', ru: 'находка не найдена' },
  enricher_not_found: {
    en: 'no enabled enrichment plugin {plugin_id}',
    ru: 'нет включённого плагина обогащения {plugin_id}',
  },
  enrichment_failed: {
    en: 'the enrichment plugin failed ({reason}); the tags are unchanged',
    ru: 'плагин обогащения завершился ошибкой ({reason}); теги не изменены',
  },
  invalid_answer: {
    en: 'the plugin answered something it must not ({problem}); nothing was changed',
    ru: 'плагин ответил недопустимым образом ({problem}); ничего не изменено',
  },
  answer_too_large: {
    en: 'the plugin answered more than the service accepts; nothing was changed',
    ru: 'ответ плагина больше допустимого; ничего не изменено',
  },
  finding_source_not_found: {
    en: 'no enabled finding source {plugin_id}',
    ru: 'нет включённого источника находок {plugin_id}',
  },
  finding_source_poll_failed: {
    en: 'the finding source could not be polled ({reason}): {message}; nothing was changed',
    ru: 'не удалось опросить источник находок ({reason}): {message}; ничего не изменено',
  },
  verification_endpoint_missing: {
    en: 'the project has no re-verification endpoint: set one first (PUT /api/v1/projects/{project_id}/verification-endpoint)',
    ru: 'у проекта нет адреса перепроверки: сначала задайте его (PUT /api/v1/projects/{project_id}/verification-endpoint)',
  },
  verification_endpoint_invalid: {
    en: 'the re-verification endpoint is refused: {reason}',
    ru: 'адрес перепроверки отклонён: {reason}',
  },
  reverification_unavailable: {
    en: 'the finding cannot be re-verified: {reason}',
    ru: 'находку нельзя перепроверить: {reason}',
  },
  callback_signature_missing: {
    en: 'the callback lacks X-Scanner-Key-Id, X-Scanner-Timestamp or X-Scanner-Signature',
    ru: 'в обратном вызове нет X-Scanner-Key-Id, X-Scanner-Timestamp или X-Scanner-Signature',
  },
  callback_signature_invalid: {
    en: 'the callback signature does not match the body',
    ru: 'подпись обратного вызова не соответствует телу',
  },
  callback_timestamp_stale: {
    en: 'the callback timestamp is more than {max_skew_seconds} s away from the service clock',
    ru: 'метка времени обратного вызова отличается от часов сервиса больше чем на {max_skew_seconds} с',
  },
  callback_key_unknown: {
    en: 'unknown callback key',
    ru: 'неизвестный ключ обратного вызова',
  },
  callback_key_retired: {
    en: 'the callback key was retired or its rotation window has ended',
    ru: 'ключ обратного вызова отозван или окно его ротации закончилось',
  },
  callback_replayed: {
    en: 'this signed callback was already received',
    ru: 'этот подписанный обратный вызов уже получен',
  },
  callback_key_not_rotatable: {
    en: 'the callback key was already rotated, retired or has expired: rotate its successor',
    ru: 'ключ обратного вызова уже заменён, отозван или истёк: заменяйте его преемника',
  },
  callback_key_not_found: {
    en: 'no callback key {id}',
    ru: 'нет ключа обратного вызова {id}',
  },
  channel_plugin_not_found: {
    en: 'no installed channel plugin {plugin_id}',
    ru: 'нет установленного плагина канала {plugin_id}',
  },
  channel_plugin_not_installed: {
    en: 'no enabled channel plugin for {channel} is installed',
    ru: 'не установлен включённый плагин канала {channel}',
  },
  finding_cursor_invalid: {
    en: 'cursor is malformed or belongs to another sort order',
    ru: 'курсор повреждён или относится к другому порядку сортировки',
  },
  query_syntax_error: {
    en: 'query syntax error at position {position}: {problem}',
    ru: 'синтаксическая ошибка в запросе, позиция {position}: {problem}',
  },
  risk_accepted_until_required: {
    en: 'status risk_accepted requires risk_accepted_until',
    ru: 'для статуса risk_accepted нужна дата risk_accepted_until',
  },
  risk_accepted_until_invalid: {
    en: 'risk_accepted_until must be in the future',
    ru: 'risk_accepted_until должна быть в будущем',
  },
  waiting_fields_required: {
    en: 'status waiting requires waiting_reason and waiting_until',
    ru: 'для статуса waiting нужны waiting_reason и waiting_until',
  },
  waiting_until_invalid: {
    en: 'waiting_until must be in the future and at most 30 days ahead',
    ru: 'waiting_until должна быть в будущем и не дальше 30 дней',
  },
  triage_field_status_mismatch: {
    en: 'risk_accepted_until and waiting_* can only be set with their status',
    ru: 'risk_accepted_until и waiting_* задаются только вместе со своим статусом',
  },
  assignee_invalid: {
    en: 'the assignee must be an active user with access to the project',
    ru: 'исполнитель должен быть активным пользователем с доступом к проекту',
  },
  finding_tags_limit: {
    en: 'a finding can carry at most 50 manual tags',
    ru: 'у находки может быть не более 50 ручных тегов',
  },
  status_not_settable: {
    en: 'renewed cannot be set by hand: only a report that sees a fixed finding again sets it',
    ru: 'статус renewed нельзя установить вручную: его ставит только отчёт, снова увидевший исправленную находку',
  },
  justification_required: {
    en: 'this decision needs a justification (risk_accepted, false_positive, wont_fix, a new risk_accepted_until)',
    ru: 'это решение требует обоснования (risk_accepted, false_positive, wont_fix, новая дата risk_accepted_until)',
  },
  comment_not_found: { en: 'comment not found', ru: 'комментарий не найден' },
  bulk_selection_required: {
    en: 'name the findings: finding_ids, or q and/or filters',
    ru: 'укажите находки: finding_ids либо q и/или фильтры',
  },
  bulk_selection_too_large: {
    en: 'the selection holds more findings than one bulk change may touch ({max})',
    ru: 'выборка содержит больше находок, чем допускает одно массовое изменение ({max})',
  },
  // lifecycle, deadlines, dashboards
  bulk_waiting_refused: {
    en: 'waiting cannot be set in a bulk change: it needs a reason and a date per finding',
    ru: 'состояние waiting нельзя установить массовым изменением: нужны причина и дата для каждой находки',
  },
  status_transition_refused: {
    en: 'this status change is not allowed for this trigger',
    ru: 'такой переход состояния не разрешён для этого источника изменения',
  },
  sla_violation_not_found: {
    en: 'deadline violation not found',
    ru: 'нарушение срока не найдено',
  },
  sla_violation_resolved: {
    en: 'the deadline violation is already resolved',
    ru: 'нарушение срока уже закрыто',
  },
  sla_cursor_invalid: {
    en: 'cursor is invalid or was made for other filters',
    ru: 'курсор недействителен или создан для других фильтров',
  },
  plugin_source_not_found: {
    en: 'plugin catalog source not found',
    ru: 'источник каталога плагинов не найден',
  },
  plugin_source_native_on_create: {
    en: 'allows_native cannot be set when a source is registered; grant it with an update',
    ru: 'allows_native нельзя задать при регистрации источника; выдайте его обновлением',
  },
  plugin_source_key_invalid: {
    en: 'public_key must be an Ed25519 public key in PEM (SPKI)',
    ru: 'public_key должен быть открытым ключом Ed25519 в PEM (SPKI)',
  },
  plugin_source_key_locked: {
    en: 'the key of a source with allows_native cannot change; withdraw allows_native first',
    ru: 'ключ источника с allows_native нельзя изменить; сначала отзовите allows_native',
  },
  plugin_source_inactive: {
    en: 'the plugin catalog source is not active',
    ru: 'источник каталога плагинов не активен',
  },
  plugin_catalog_url_refused: {
    en: 'catalog address refused: {reason}',
    ru: 'адрес каталога отклонён: {reason}',
  },
  plugin_catalog_unavailable: {
    en: 'the plugin catalog could not be fetched: {reason}',
    ru: 'не удалось получить каталог плагинов: {reason}',
  },
  plugin_catalog_invalid: {
    en: 'the plugin catalog is malformed: {reason}',
    ru: 'каталог плагинов некорректен: {reason}',
  },
  plugin_catalog_signature_invalid: {
    en: "the plugin catalog's signature does not verify with the source's key",
    ru: 'подпись каталога плагинов не проверяется ключом источника',
  },
  installed_plugin_not_found: {
    en: 'installed plugin not found',
    ru: 'установленный плагин не найден',
  },
  plugin_not_in_catalog: {
    en: 'the catalog has no such plugin or version',
    ru: 'в каталоге нет такого плагина или версии',
  },
  plugin_already_installed: {
    en: 'this plugin is already installed',
    ru: 'этот плагин уже установлен',
  },
  plugin_sideload_on_json_route: {
    en: 'source_type sideload is not accepted here; upload the module and description to /api/v1/admin/installed-plugins/sideload',
    ru: 'source_type sideload здесь не принимается; загрузите модуль и описание в /api/v1/admin/installed-plugins/sideload',
  },
  plugin_runtime_refused: {
    en: 'runtime {runtime} cannot run this plugin: {reason}',
    ru: 'среда {runtime} не может выполнять этот плагин: {reason}',
  },
  plugin_native_not_permitted: {
    en: 'native plugins need a signed source carrying allows_native',
    ru: 'нативным плагинам нужен подписанный источник с allows_native',
  },
  plugin_version_older: {
    en: 'version {version} is older than the installed {installed}',
    ru: 'версия {version} старше установленной {installed}',
  },
  plugin_downgrade_unconfirmed: {
    en: 'installing the older version {version} over {installed} needs confirm_downgrade',
    ru: 'установка более старой версии {version} вместо {installed} требует confirm_downgrade',
  },
  plugin_service_version_unmet: {
    en: 'the plugin needs service version {required}; this service is {service}',
    ru: 'плагину нужна версия сервиса {required}; версия этого сервиса {service}',
  },
  plugin_artifact_revoked: {
    en: 'the plugin artifact is revoked by its catalog',
    ru: 'артефакт плагина отозван каталогом',
  },
  plugin_artifact_invalid: {
    en: 'the plugin artifact was refused: {problem}',
    ru: 'артефакт плагина отклонён: {problem}',
  },
  plugin_signature_invalid: {
    en: "the plugin's signature does not verify with the source's key",
    ru: 'подпись плагина не проверяется ключом источника',
  },
  plugin_manifest_invalid: {
    en: 'the plugin description is invalid: {problems}',
    ru: 'описание плагина некорректно: {problems}',
  },
  plugin_secret_setting_refused: {
    en: 'secret-marked settings cannot be written through settings: {names}',
    ru: 'секретные настройки нельзя записать через settings: {names}',
  },
  plugin_settings_invalid: {
    en: 'plugin settings refused: {problems}',
    ru: 'настройки плагина отклонены: {problems}',
  },
  plugin_config_invalid: {
    en: 'the plugin refused this configuration, nothing was saved: {problems}',
    ru: 'плагин отклонил эту конфигурацию, ничего не сохранено: {problems}',
  },
  plugin_config_check_failed: {
    en: 'the plugin could not check this configuration, nothing was saved: {reason}',
    ru: 'плагин не смог проверить эту конфигурацию, ничего не сохранено: {reason}',
  },
  plugin_no_pending_change: {
    en: 'no capability change is waiting for acknowledgement',
    ru: 'нет изменения возможностей, ожидающего подтверждения',
  },
  plugin_disabled: {
    en: 'the plugin is disabled',
    ru: 'плагин отключён',
  },
  plugin_runner_unavailable: {
    en: 'the plugin runner cannot be reached: {reason}',
    ru: 'исполнитель плагинов недоступен: {reason}',
  },
  plugin_upload_invalid: {
    en: 'sideload needs two files, module and description: {reason}',
    ru: 'для загрузки нужны два файла, module и description: {reason}',
  },
  plugin_artifact_too_large: {
    en: 'the plugin module is larger than {max_bytes} bytes',
    ru: 'модуль плагина больше {max_bytes} байт',
  },
  plugin_capability_change_pending: {
    en: 'version {version} declares capabilities the installed version lacks ({added}); it is held until acknowledge-capability-change',
    ru: 'версия {version} объявляет возможности, которых нет у установленной ({added}); она ожидает acknowledge-capability-change',
  },
  scope_entry_invalid: {
    en: 'scope entry "{entry}" is not an IP address, CIDR block, address range or host name',
    ru: 'запись периметра «{entry}» не является IP-адресом, CIDR-блоком, диапазоном адресов или именем хоста',
  },
  scope_entry_too_wide: {
    en: 'scope entry "{entry}" is too wide: at most a /8 (IPv4) or a /32 (IPv6), ranges alike',
    ru: 'запись периметра «{entry}» слишком широкая: не шире /8 для IPv4 и /32 для IPv6, диапазоны так же',
  },
  scope_entry_host_bits: {
    en: 'scope entry "{entry}" has host bits set; the block is {network}',
    ru: 'в записи периметра «{entry}» заданы биты хоста; блок — {network}',
  },
  scope_entry_name_too_long: {
    en: 'scope entry "{entry}" is too long: labels of at most 63 characters, names of at most 253',
    ru: 'запись периметра «{entry}» слишком длинная: метка не длиннее 63 символов, имя не длиннее 253',
  },
  scope_entry_punycode_invalid: {
    en: 'scope entry "{entry}" holds an xn-- label that is not valid punycode',
    ru: 'запись периметра «{entry}» содержит метку xn--, которая не является корректным punycode',
  },
  scope_entry_wildcard_invalid: {
    en: 'scope entry "{entry}": a wildcard may only be the whole leftmost label, followed by at least two labels (*.example.com)',
    ru: 'запись периметра «{entry}»: подстановочный знак допустим только как целая крайняя левая метка, за которой идут не меньше двух меток (*.example.com)',
  },
  scope_batch_too_large: {
    en: 'at most {max} entries per request',
    ru: 'не больше {max} записей в одном запросе',
  },
  scope_cursor_invalid: {
    en: 'cursor is invalid or was made for other filters',
    ru: 'курсор недействителен или создан для других фильтров',
  },
  scope_filter_too_many: {
    en: 'at most {max} targets per request',
    ru: 'не больше {max} целей в одном запросе',
  },
  scope_filter_body_invalid: {
    en: 'the target list must be UTF-8 text, one target per line',
    ru: 'список целей должен быть текстом UTF-8, по одной цели в строке',
  },
  scope_asset_invalid: {
    en: 'inventory item "{asset}" is invalid: a host name and an IP address are expected',
    ru: 'элемент инвентаря «{asset}» некорректен: ожидаются имя хоста и IP-адрес',
  },
  scope_ipam_unsupported: {
    en: 'IP address management system "{system}" is not supported (supported: {supported})',
    ru: 'система управления IP-адресами «{system}» не поддерживается (поддерживаются: {supported})',
  },
  scope_ipam_url_refused: {
    en: 'the IP address management system address is refused: {reason}',
    ru: 'адрес системы управления IP-адресами отклонён: {reason}',
  },
  scope_entry_not_found: {
    en: 'scope entry not found',
    ru: 'запись периметра не найдена',
  },
  scope_proposal_not_found: {
    en: 'scope proposal not found',
    ru: 'предложение в периметр не найдено',
  },
  scope_entry_duplicate: {
    en: 'scope entry "{entry}" already exists ({existing_mode}, {existing_id})',
    ru: 'запись периметра «{entry}» уже есть ({existing_mode}, {existing_id})',
  },
  scope_entry_overlaps: {
    en: 'scope entry "{entry}" overlaps the entry "{existing}" ({existing_id}); entries of one mode may not overlap',
    ru: 'запись периметра «{entry}» пересекается с записью «{existing}» ({existing_id}); записи одного вида не должны пересекаться',
  },
  scope_entries_limit: {
    en: 'the perimeter would hold more than {max} entries',
    ru: 'в периметре оказалось бы больше {max} записей',
  },
  scope_proposals_limit: {
    en: 'the project already has {max} proposals awaiting a decision',
    ru: 'у проекта уже {max} предложений, ожидающих решения',
  },
  scope_proposal_decided: {
    en: 'the proposal is already {status}',
    ru: 'по предложению уже принято решение: {status}',
  },
  scope_ipam_token_refused: {
    en: 'the IP address management system refused the token (HTTP {status}); nothing was imported',
    ru: 'система управления IP-адресами отклонила токен (HTTP {status}); ничего не импортировано',
  },
  scope_ipam_too_large: {
    en: 'the IP address management system lists more than {max} objects; narrow the import with filters',
    ru: 'система управления IP-адресами выдаёт больше {max} объектов; сузьте импорт фильтрами',
  },
  scope_ipam_unavailable: {
    en: 'the IP address management system cannot be reached or failed: {reason}; nothing was imported',
    ru: 'система управления IP-адресами недоступна или ответила ошибкой: {reason}; ничего не импортировано',
  },
  scope_ipam_answer_invalid: {
    en: 'the IP address management system answered something other than its API: {reason}; nothing was imported',
    ru: 'система управления IP-адресами ответила не так, как её API: {reason}; ничего не импортировано',
  },
  delivery_not_retryable: {
    en: 'only a failed delivery can be retried; this one is {state}',
    ru: 'повторить можно только неудавшуюся доставку; эта в состоянии {state}',
  },
  delivery_not_found: {
    en: 'no such notification delivery in this project',
    ru: 'такой доставки уведомления в этом проекте нет',
  },
  ticket_exists: {
    en: 'the finding is already linked to a ticket',
    ru: 'находка уже связана с задачей',
  },
  ticket_backfill_running: {
    en: 'a ticket backfill of this project is already running',
    ru: 'заполнение задач для этого проекта уже выполняется',
  },
  ticket_provider_error: {
    en: 'the ticket tracker refused or failed ({kind}): {reason}',
    ru: 'трекер задач отказал или ответил ошибкой ({kind}): {reason}',
  },
  ticket_provider_not_configured: {
    en: 'no ticket tracker is configured for this project',
    ru: 'для этого проекта не настроен трекер задач',
  },
  suppression_rule_invalid: {
    en: 'the suppression rule is not valid at position {position}: {problem}',
    ru: 'правило подавления некорректно, позиция {position}: {problem}',
  },
  suppression_rule_not_found: {
    en: 'no such suppression rule in this project',
    ru: 'такого правила подавления в этом проекте нет',
  },
  suppression_rule_running: {
    en: 'this suppression rule is already being run',
    ru: 'это правило подавления уже применяется',
  },
  suppression_rule_disabled: {
    en: 'the suppression rule is disabled; enable it before running it',
    ru: 'правило подавления выключено; включите его перед применением',
  },
  suppression_rules_limit: {
    en: 'the project already has {limit} suppression rules',
    ru: 'в проекте уже {limit} правил подавления',
  },
  merge_into_self: {
    en: 'a finding cannot be merged into itself',
    ru: 'находку нельзя объединить саму с собой',
  },
  merge_products_differ: {
    en: 'findings can only be merged within one product (identity and deduplication are per product)',
    ru: 'объединять можно только находки одного продукта (идентичность и дедупликация действуют в пределах продукта)',
  },
  finding_already_merged: {
    en: 'the finding is already merged into another one ({finding_id})',
    ru: 'находка уже объединена с другой ({finding_id})',
  },
  merge_member_has_members: {
    en: 'the finding has merged findings of its own; unmerge them first ({finding_id})',
    ru: 'с этой находкой уже объединены другие; сначала разъедините их ({finding_id})',
  },
  finding_not_merged: {
    en: 'the finding is not merged and has no merged findings',
    ru: 'находка не объединена и не имеет объединённых находок',
  },
};
