// The toolbar button's popup: which tabs trueclick may act on, and a Stop for each.
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
  for (const tab of state.shared) {
    const li = document.createElement('li');
    const button = document.createElement('button');
    button.textContent = 'Stop';
    button.dataset.tabId = String(tab.id);
    button.addEventListener('click', async () => render(await chrome.runtime.sendMessage({ type: 'stop', tabId: tab.id })));
    const label = document.createElement('span');
    label.className = 'tab';
    const title = document.createElement('strong');
    title.textContent = tab.title || tab.url;
    const url = document.createElement('small');
    url.textContent = tab.url;
    label.append(title, url);
    li.append(button, label);
    list.append(li);
  }
}

stopAll.addEventListener('click', async () => render(await chrome.runtime.sendMessage({ type: 'stopAll' })));
chrome.runtime.sendMessage({ type: 'state' }).then(render);
