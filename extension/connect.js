// The page trueclick's link opens: it names the relay asking, lists the tabs that can be shared, and hands the
// user's choice to the service worker. Nothing is shared until the user presses Share.
import { tabRow } from './tab-row.js';

const params = new URLSearchParams(location.search);
const relay = params.get('relay') ?? '';
const token = params.get('token') ?? '';
const list = document.getElementById('tabs');
const status = document.getElementById('status');

function say(text, bad = false) {
  status.textContent = text;
  status.className = bad ? 'bad' : 'good';
}

function row(tab) {
  return tabRow(tab, 'Share', async (button) => {
    button.disabled = true;
    const r = await chrome.runtime.sendMessage({ type: 'share', tabId: tab.id, relay, token });
    if (r.ok) {
      say(`Shared: ${tab.title || tab.url}. trueclick can act on that tab now; you can close this page.`);
      button.textContent = 'Shared';
    } else {
      say(`Not shared: ${r.error}`, true);
      button.disabled = false;
    }
  });
}

async function show() {
  if (!relay || !token) {
    say('This page needs the link trueclick gives (it names the relay and a token for this run).', true);
    return;
  }
  document.getElementById('ask').textContent =
    `trueclick at ${relay.replace(/\/extension.*$/, '')} asks to see and click in one of your tabs. Choose the tab to share.`;
  const me = (await chrome.tabs.getCurrent())?.id;
  const tabs = (await chrome.tabs.query({})).filter((t) => t.id !== me && /^(https?|file|about):/.test(t.url ?? ''));
  if (tabs.length === 0) say('No tab can be shared: open the page you want trueclick to act on, then reload this page.', true);
  for (const tab of tabs) list.append(row(tab));
}

void show();
