// The toolbar button's popup: which tabs trueclick may act on, and a Stop for each.
import { tabRow } from './tab-row.js';

const list = document.getElementById('shared');
const summary = document.getElementById('summary');
const stopAll = document.getElementById('stop-all');

function render(state) {
  list.replaceChildren();
  if (state.shared.length === 0) {
    summary.textContent = `No tab is shared.${state.lastReason ? ` Last: ${state.lastReason}.` : ''} To share one, open the link trueclick gives.`;
    stopAll.hidden = true;
    return;
  }
  summary.textContent = `trueclick can see and click in ${state.shared.length === 1 ? 'this tab' : `these ${state.shared.length} tabs`}:`;
  stopAll.hidden = state.shared.length < 2;
  for (const tab of state.shared)
    list.append(tabRow(tab, 'Stop', async () => render(await chrome.runtime.sendMessage({ type: 'stop', tabId: tab.id }))));
}

stopAll.addEventListener('click', async () => render(await chrome.runtime.sendMessage({ type: 'stopAll' })));
chrome.runtime.sendMessage({ type: 'state' }).then(render);
