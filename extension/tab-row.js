// One tab as the connect page and the popup list it: a button, then its title and URL.
export function tabRow(tab, action, onClick) {
  const li = document.createElement('li');
  const button = document.createElement('button');
  button.textContent = action;
  button.dataset.tabId = String(tab.id);
  button.addEventListener('click', () => onClick(button));
  const label = document.createElement('span');
  label.className = 'tab';
  const title = document.createElement('strong');
  title.textContent = tab.title || tab.url;
  const url = document.createElement('small');
  url.textContent = tab.url;
  label.append(title, url);
  li.append(button, label);
  return li;
}
