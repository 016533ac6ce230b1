// The trueclick extension's service worker: relays the Chrome DevTools Protocol between trueclick's relay on
// this machine (127.0.0.1) and the tabs the user chose to share, through chrome.debugger. It reaches nothing
// else: a command for a tab that is not shared is refused, and the relay may be on loopback only.

/** @type {WebSocket | null} */
let link = null;
/** @type {{ url: string, token: string } | null} */
let relay = null;
/** Shared tabs by id (a Map keeps the order they were shared in). */
const shared = new Map();
/** Why the last tab stopped being shared, for the popup. */
let lastReason = '';
let keepAlive = 0;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const PROTOCOL = '1.3';

/** Only trueclick's relay on this machine may drive a shared tab: a link naming any other host is refused. */
function checkRelay(url) {
  let u;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`not a relay address: ${url}`);
  }
  if (u.protocol !== 'ws:' || !LOOPBACK.has(u.hostname))
    throw new Error(`the relay must be on this machine (ws://127.0.0.1:PORT), not ${u.host}`);
  return u;
}

function send(message) {
  if (link?.readyState === WebSocket.OPEN) link.send(JSON.stringify(message));
}

/** Opens the link to the relay (once per relay address and token); resolves when it is open. */
function connect(url, token) {
  checkRelay(url);
  if (link && relay?.url === url && relay.token === token && link.readyState <= WebSocket.OPEN)
    return link.readyState === WebSocket.OPEN ? Promise.resolve() : opened(link);
  disconnect('another trueclick run asked to connect');
  const target = new URL(url);
  target.searchParams.set('token', token);
  const ws = new WebSocket(target.href);
  link = ws;
  relay = { url, token };
  ws.onmessage = (e) => void onCommand(ws, e.data);
  ws.onclose = () => {
    if (link !== ws) return;
    link = null;
    relay = null;
    clearInterval(keepAlive);
    // trueclick went away: stop debugging every shared tab, so Chrome's "debugging" bar goes too.
    for (const tabId of [...shared.keys()]) void stopSharing(tabId, 'trueclick stopped');
  };
  // A service worker with an open socket that stays quiet is suspended after 30 s.
  keepAlive = setInterval(() => send({ event: 'ping' }), 20_000);
  return opened(ws);
}

function opened(ws) {
  return new Promise((resolve, reject) => {
    ws.addEventListener('open', () => {
      send({ event: 'hello', userAgent: navigator.userAgent });
      resolve();
    });
    ws.addEventListener('close', (e) =>
      reject(new Error(e.reason || 'trueclick refused the connection (the link is from another run, or it stopped)')),
    );
  });
}

function disconnect(reason) {
  const ws = link;
  link = null;
  relay = null;
  clearInterval(keepAlive);
  ws?.close(1000, reason);
}

/** Attaches the debugger to a tab and tells the relay. */
async function share(tabId) {
  if (shared.has(tabId)) return;
  const tab = await chrome.tabs.get(tabId);
  if (!/^(https?|file|about|data):/.test(tab.url || tab.pendingUrl || 'about:blank'))
    throw new Error(`a ${new URL(tab.url).protocol} page cannot be shared`);
  await chrome.debugger.attach({ tabId }, PROTOCOL);
  const { targetInfo } = await chrome.debugger.sendCommand({ tabId }, 'Target.getTargetInfo');
  shared.set(tabId, { title: tab.title, url: tab.url });
  await chrome.action.setBadgeBackgroundColor({ tabId, color: '#0b7a43' });
  await chrome.action.setBadgeText({ tabId, text: 'ON' });
  send({ event: 'shared', tabId, targetInfo });
}

/**
 * Ends the sharing of one tab (the user's Stop, a closed tab, Chrome's Cancel bar) and says why; `next`: another
 * tab is being shared in its place, so trueclick waits for it rather than answer that none is.
 */
async function stopSharing(tabId, reason, next = false) {
  if (!shared.delete(tabId)) return;
  lastReason = reason;
  send({ event: 'unshared', tabId, reason, ...(next ? { next: true } : {}) });
  await chrome.debugger.detach({ tabId }).catch(() => {});
  await chrome.action.setBadgeText({ tabId, text: '' }).catch(() => {});
}

const DETACH_REASONS = {
  target_closed: 'the shared tab was closed',
  canceled_by_user: 'the user clicked Cancel on Chrome’s debugging bar',
};

chrome.debugger.onDetach.addListener((source, reason) => {
  if (source.tabId !== undefined)
    void stopSharing(source.tabId, DETACH_REASONS[reason] ?? `Chrome detached the debugger (${reason})`);
});

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (!shared.has(source.tabId)) return;
  if (method === 'Page.windowOpen' && !source.sessionId) {
    windowOpens.push({ opener: source.tabId, t: Date.now() });
    pairOpens();
  }
  send({ event: 'cdp', tabId: source.tabId, sessionId: source.sessionId, method, params });
});

chrome.tabs.onRemoved.addListener((tabId) => void stopSharing(tabId, 'the shared tab was closed'));

// A tab a shared page opens (a target=_blank link, window.open) is part of what the user shared. Chrome names
// an opener for tabs opened in other ways too (a new tab next to the active one), so the page's own
// Page.windowOpen must vouch for it: a new tab and a window the shared page opened within 5 s pair up.
const OPEN_PAIR_MS = 5_000;
let windowOpens = [];
let newTabs = [];

function pairOpens() {
  const now = Date.now();
  windowOpens = windowOpens.filter((o) => now - o.t < OPEN_PAIR_MS);
  newTabs = newTabs.filter((c) => now - c.t < OPEN_PAIR_MS);
  for (const c of [...newTabs]) {
    const o = windowOpens.find((x) => x.opener === c.opener);
    if (!o) continue;
    windowOpens.splice(windowOpens.indexOf(o), 1);
    newTabs.splice(newTabs.indexOf(c), 1);
    share(c.tabId).catch(() => {});
  }
}

chrome.tabs.onCreated.addListener((tab) => {
  if (tab.id === undefined || tab.openerTabId === undefined || !shared.has(tab.openerTabId) || !link) return;
  newTabs.push({ tabId: tab.id, opener: tab.openerTabId, t: Date.now() });
  pairOpens();
});

/** What the relay may ask: CDP for a shared tab, a new tab beside a shared one, closing or showing a shared tab. */
async function run(cmd) {
  const mine = (tabId) => {
    if (!shared.has(tabId)) throw new Error(`tab ${tabId} is not shared with trueclick`);
    return tabId;
  };
  switch (cmd.cmd) {
    case 'send': {
      const target = { tabId: mine(cmd.tabId), ...(cmd.sessionId ? { sessionId: cmd.sessionId } : {}) };
      return (await chrome.debugger.sendCommand(target, cmd.method, cmd.params)) ?? {};
    }
    case 'create': {
      const opener = [...shared.keys()].at(-1);
      if (opener === undefined) throw new Error('no tab is shared');
      const { windowId, index } = await chrome.tabs.get(opener);
      const tab = await chrome.tabs.create({ url: cmd.url || 'about:blank', windowId, index: index + 1, openerTabId: opener });
      await share(tab.id);
      return { tabId: tab.id };
    }
    case 'close':
      await chrome.tabs.remove(mine(cmd.tabId));
      return {};
    case 'activate':
      await chrome.tabs.update(mine(cmd.tabId), { active: true });
      return {};
    default:
      throw new Error(`unknown command ${cmd.cmd}`);
  }
}

async function onCommand(ws, data) {
  let cmd;
  try {
    cmd = JSON.parse(data);
  } catch {
    return;
  }
  try {
    const result = await run(cmd);
    if (link === ws) send({ id: cmd.id, result });
  } catch (err) {
    if (link === ws) send({ id: cmd.id, error: String(err?.message ?? err) });
  }
}

async function state() {
  const tabs = await Promise.all(
    [...shared.keys()].map((id) => chrome.tabs.get(id).then((t) => ({ id, title: t.title, url: t.url })).catch(() => null)),
  );
  return { relay: relay?.url ?? null, connected: link?.readyState === WebSocket.OPEN, shared: tabs.filter(Boolean), lastReason };
}

// The connect page and the popup talk to this worker; nothing else may (no externally_connectable).
chrome.runtime.onMessage.addListener((msg, sender, reply) => {
  if (sender.id !== chrome.runtime.id) return false;
  const work = async () => {
    switch (msg.type) {
      case 'share':
        await connect(msg.relay, msg.token);
        // One tab is shared at a time (with the tabs it opens): the user's new choice replaces the old one.
        for (const tabId of [...shared.keys()])
          if (tabId !== msg.tabId) await stopSharing(tabId, 'the user shared another tab instead', true);
        await share(msg.tabId).catch((err) => {
          // trueclick waits for the tab it was told is coming: say it is not.
          send({ event: 'share-failed' });
          throw err;
        });
        await chrome.tabs.update(msg.tabId, { active: true });
        return state();
      case 'stop':
        await stopSharing(msg.tabId, 'the user stopped sharing the tab');
        return state();
      case 'stopAll':
        for (const tabId of [...shared.keys()]) await stopSharing(tabId, 'the user stopped sharing');
        return state();
      default:
        return state();
    }
  };
  work().then(
    (r) => reply({ ok: true, ...r }),
    (err) => reply({ ok: false, error: String(err?.message ?? err) }),
  );
  return true;
});
