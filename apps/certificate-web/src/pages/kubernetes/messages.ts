/** Texts of the Kubernetes screen; Russian must have every key. */
export const kubernetesEn = {
  'nav.kubernetes': 'Kubernetes',
  'k8s.title': 'Kubernetes clusters',
  'k8s.caption': 'Registered clusters',
  'k8s.create': 'Register cluster',
  'k8s.createTitle': 'Register a cluster',
  'k8s.editTitle': 'Cluster {name}',
  'k8s.editCluster': 'Edit the cluster {name}',
  'k8s.deleteCluster': 'Delete the cluster {name}',
  'k8s.name': 'Name',
  'k8s.nameHint': 'lower-case letters, digits and -',
  'k8s.serverUrl': 'API server URL',
  'k8s.caBundle': 'API server CA (PEM)',
  'k8s.caBundleHint':
    'the certificates the API server presents (kubeconfig certificate-authority-data)',
  'k8s.groups': 'Group mappings',
  'k8s.groupsHint':
    'one a line: "any = group", "role:cert-admin = group", "alias:ops = group" or "user:ann@example.com = group"',
  'k8s.badGroupLine': 'Not a group mapping: "{line}"',
} as const;

export const kubernetesRu: Record<keyof typeof kubernetesEn, string> = {
  'nav.kubernetes': 'Kubernetes',
  'k8s.title': 'Кластеры Kubernetes',
  'k8s.caption': 'Зарегистрированные кластеры',
  'k8s.create': 'Зарегистрировать кластер',
  'k8s.createTitle': 'Регистрация кластера',
  'k8s.editTitle': 'Кластер {name}',
  'k8s.editCluster': 'Изменить кластер {name}',
  'k8s.deleteCluster': 'Удалить кластер {name}',
  'k8s.name': 'Имя',
  'k8s.nameHint': 'строчные буквы, цифры и -',
  'k8s.serverUrl': 'Адрес API-сервера',
  'k8s.caBundle': 'УЦ API-сервера (PEM)',
  'k8s.caBundleHint': 'сертификаты, которые предъявляет API-сервер (certificate-authority-data)',
  'k8s.groups': 'Соответствие групп',
  'k8s.groupsHint':
    'по одному в строке: «any = группа», «role:cert-admin = группа», «alias:ops = группа» или «user:ann@example.com = группа»',
  'k8s.badGroupLine': 'Не соответствие группы: «{line}»',
};
