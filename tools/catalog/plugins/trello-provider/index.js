// Board provider (catalog plugin `trello-provider`, provider C of the spec, Trello-style API).
//
// Every call carries `key=<api_key>&token=<api_token>` in its query (both secrets; errors never
// name a URL). The targets are the board's lists (`GET /1/boards/{board_id}/lists`); a card is
// created in the target list or the list named `list_name` (`POST /1/cards?idList&name&desc
// &idLabels`, labels by name, created on the board when missing), comments are `POST
// /1/cards/{id}/actions/comments?text=`. A transition is a move between lists: open →
// `list_name`; in-progress → a list named "In Progress" or "Doing"; resolved → "Done" or
// "Resolved"; closed → the card is archived (`closed=true`). The status is read back the same
// way from the card's list and `closed`. Search by label walks `GET /1/boards/{id}/cards/all`
// in pages of 1 000 by `before` (at most 100 pages). Webhooks: `action.type` `updateCard` with
// `listAfter` or `card.closed`, and `commentCard`. Rate limits (429) answer
// `unreachable("retry-after:<seconds>")`.
import { getSecret } from 'findsvc:plugin/host@0.1.0';

import {
  call,
  configProblems,
  fail,
  findingLabel,
  groupDescription,
  groupLabel,
  labelList,
  MAX_PAGES,
  query,
  requiredSetting,
  secretOf,
  settingsOf,
  summaryAndDescription,
  ticketOf,
  trimSlash,
} from './provider-kit.js';

const CARDS_PAGE = 1000;
const ID = /^[0-9a-fA-F]{24}$|^[A-Za-z0-9]{8}$/;
const STATUS_LISTS = {
  'in-progress': ['in progress', 'doing'],
  resolved: ['done', 'resolved'],
};

function boardOf(ctx) {
  const settings = settingsOf(ctx);
  const board = requiredSetting(settings, 'board_id');
  if (!ID.test(board)) throw fail('misconfigured', 'board_id is not a board id');
  const key = secretOf('api_key');
  const token = secretOf('api_token');
  if (!key || !token) throw fail('misconfigured', 'secrets api_key and api_token are required');
  return {
    settings,
    board,
    key,
    token,
    api: `${trimSlash(settings.api_base_url || 'https://api.trello.com')}/1`,
  };
}

function trello(b, what, method, path, params = {}) {
  const q = query({ ...params, key: b.key, token: b.token });
  return call(what, {
    method,
    url: `${b.api}${path}?${q}`,
    headers: [{ name: 'accept', value: 'application/json' }],
    body: undefined,
  }).json;
}

function cardId(taskId) {
  if (!ID.test(taskId)) throw fail('rejected', 'not a card id');
  return taskId;
}

function listsOf(b) {
  const lists = trello(b, 'board lists', 'GET', `/boards/${b.board}/lists`, { fields: 'id,name' });
  if (!Array.isArray(lists)) throw fail('unreachable', 'board lists: unexpected answer');
  return lists.filter((l) => l && typeof l.id === 'string');
}

function listFor(b, lists, status) {
  const name = (l) =>
    String(l.name || '')
      .trim()
      .toLowerCase();
  if (status === 'open') {
    const wanted = requiredSetting(b.settings, 'list_name').trim().toLowerCase();
    return lists.find((l) => name(l) === wanted);
  }
  return lists.find((l) => STATUS_LISTS[status].includes(name(l)));
}

function statusOfList(b, listName) {
  const n = String(listName || '')
    .trim()
    .toLowerCase();
  if (STATUS_LISTS['in-progress'].includes(n)) return 'in-progress';
  if (STATUS_LISTS.resolved.includes(n)) return 'resolved';
  return 'open';
}

function labelIds(b, names) {
  if (names.length === 0) return [];
  const labels = trello(b, 'board labels', 'GET', `/boards/${b.board}/labels`, {
    fields: 'id,name',
    limit: 1000,
  });
  const known = new Map((Array.isArray(labels) ? labels : []).map((l) => [l && l.name, l && l.id]));
  return names.map((name) => {
    if (known.get(name)) return known.get(name);
    const made = trello(b, 'create label', 'POST', '/labels', {
      idBoard: b.board,
      name,
      color: 'red',
    });
    if (!made || typeof made.id !== 'string')
      throw fail('unreachable', 'create label: no id in the answer');
    known.set(name, made.id);
    return made.id;
  });
}

function ref(card) {
  if (!card || typeof card.id !== 'string') throw fail('unreachable', 'the answer has no card id');
  return {
    id: card.id,
    key: typeof card.shortLink === 'string' ? card.shortLink : card.id,
    url:
      typeof card.url === 'string' ? card.url : `https://trello.com/c/${card.shortLink || card.id}`,
  };
}

function createCard(b, target, name, desc, labels) {
  let idList = target;
  if (!idList) {
    const list = listFor(b, listsOf(b), 'open');
    if (!list) throw fail('misconfigured', `the board has no list named ${b.settings.list_name}`);
    idList = list.id;
  }
  const card = trello(b, 'create card', 'POST', '/cards', {
    idList,
    name,
    desc,
    idLabels: labelIds(b, [...new Set(labels)]).join(','),
    pos: 'top',
  });
  return ref(card);
}

export const ticketingProvider = {
  createTask(ctx, target, finding) {
    const b = boardOf(ctx);
    const label = findingLabel(b.settings, finding);
    const { summary, description } = summaryAndDescription(b.settings, finding, label);
    return createCard(b, target, summary, description, [label, ...labelList(b.settings)]);
  },

  createGroupTask(ctx, target, title, findings) {
    const b = boardOf(ctx);
    const label = groupLabel(b.settings);
    const desc = groupDescription(b.settings, findings, label);
    return createCard(b, target, String(title).slice(0, 250), desc, [
      label,
      ...labelList(b.settings),
    ]);
  },

  addComment(ctx, taskId, body) {
    const b = boardOf(ctx);
    trello(b, 'add comment', 'POST', `/cards/${cardId(taskId)}/actions/comments`, { text: body });
  },

  transition(ctx, taskId, status) {
    const b = boardOf(ctx);
    const id = cardId(taskId);
    if (status === 'closed') {
      trello(b, 'archive card', 'PUT', `/cards/${id}`, { closed: 'true' });
      return;
    }
    const list = listFor(b, listsOf(b), status);
    if (!list) throw fail('rejected', `the board has no list for ${status}`);
    trello(b, 'move card', 'PUT', `/cards/${id}`, { idList: list.id, closed: 'false' });
  },

  readStatus(ctx, taskId) {
    const b = boardOf(ctx);
    const card = trello(b, 'read card', 'GET', `/cards/${cardId(taskId)}`, {
      fields: 'idList,closed',
      list: 'true',
    });
    if (!card || typeof card !== 'object')
      throw fail('unreachable', 'read card: unexpected answer');
    if (card.closed === true) return { status: 'closed', raw: 'archived' };
    const listName = card.list && typeof card.list.name === 'string' ? card.list.name : '';
    return { status: statusOfList(b, listName), raw: listName };
  },

  buildLink(ctx, taskId) {
    if (taskId !== '') return `https://trello.com/c/${cardId(taskId)}`;
    const b = boardOf(ctx);
    const t = ticketOf(b.settings);
    const findings = Array.isArray(t.findings) ? t.findings : [];
    let idList = t.target;
    if (!idList) {
      const list = listFor(b, listsOf(b), 'open');
      if (!list) throw fail('misconfigured', `the board has no list named ${b.settings.list_name}`);
      idList = list.id;
    }
    const name =
      findings.length === 1
        ? `${findings[0].title || findings[0].id}`
        : String(t.title || `${findings.length} findings`);
    const desc = [
      ...findings.map((f) => `- ${f.title || f.id}${f.url ? ` — ${f.url}` : ''}`),
      `Label: ${t.label || ''}`,
    ].join('\n');
    return `https://trello.com/add-card?${query({ idList, name, desc })}`;
  },

  parseWebhook(ctx, headers, body) {
    let event;
    try {
      event = JSON.parse(body);
    } catch {
      throw fail('rejected', 'the webhook body is not JSON');
    }
    const action = event && event.action;
    const data = action && action.data;
    const card = data && data.card;
    if (!card || typeof card.id !== 'string') return undefined;
    if (action.type === 'updateCard') {
      if (card.closed === true && data.old && data.old.closed === false) {
        return {
          taskId: card.id,
          state: { status: 'closed', raw: 'archived' },
          comment: undefined,
        };
      }
      if (data.listAfter && typeof data.listAfter.name === 'string') {
        const settings = settingsOf(ctx);
        return {
          taskId: card.id,
          state: {
            status: statusOfList({ settings }, data.listAfter.name),
            raw: data.listAfter.name,
          },
          comment: undefined,
        };
      }
      if (card.closed === false && data.old && data.old.closed === true) {
        return {
          taskId: card.id,
          state: { status: 'open', raw: 'unarchived' },
          comment: undefined,
        };
      }
      return undefined;
    }
    if (action.type === 'commentCard' && typeof data.text === 'string') {
      return { taskId: card.id, state: undefined, comment: data.text.slice(0, 10000) };
    }
    return undefined;
  },

  findTaskByLabel(ctx, label) {
    const b = boardOf(ctx);
    let before;
    for (let page = 0; page < MAX_PAGES; page++) {
      const cards = trello(b, 'board cards', 'GET', `/boards/${b.board}/cards/all`, {
        fields: 'id,shortLink,url,labels',
        limit: CARDS_PAGE,
        before,
      });
      if (!Array.isArray(cards)) throw fail('unreachable', 'board cards: unexpected answer');
      const found = cards.find(
        (c) => c && Array.isArray(c.labels) && c.labels.some((l) => l && l.name === label),
      );
      if (found) return ref(found);
      if (cards.length < CARDS_PAGE) return undefined;
      const ids = cards
        .map((c) => c && c.id)
        .filter((id) => typeof id === 'string')
        .sort();
      before = ids[0];
      if (!before) return undefined;
    }
    return undefined;
  },

  listTargets(ctx) {
    const b = boardOf(ctx);
    return listsOf(b).map((l) => ({ id: l.id, name: String(l.name || l.id) }));
  },
};

export const configValidator = {
  validate(ctx) {
    const problems = configProblems(ctx, {
      required: ['board_id', 'list_name'],
      urls: ['api_base_url'],
      json: [],
    });
    for (const name of ['api_key', 'api_token']) {
      let value;
      try {
        value = getSecret(name);
      } catch {
        value = undefined;
      }
      if (!value) problems.push({ setting: name, message: 'is required' });
    }
    if (problems.length > 0) throw problems;
  },
};
