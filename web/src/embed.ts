// The embed page (embed.html): one compact, read-mostly view for an iframe in
// documentation. Same fragment as the playground; `theme=` light/dark/auto;
// posts its height to the parent as {type: "jumphash:height", height}; needs
// no cookies or storage.

import './style.css';
import { App, VIEW_LABELS } from './app';

const main = document.getElementById('main')!;
const banner = document.getElementById('link-banner')!;
const open = document.getElementById('open-playground') as HTMLAnchorElement;
const title = document.getElementById('embed-title')!;

function updateOpenLink(fragment: string): void {
  // Relative to this page, so it works from any sub-path.
  open.href = `index.html${fragment ? `#${fragment}` : ''}`;
}

const app = new App({
  embedded: true,
  main,
  banner,
  onViewChange: (view) => {
    title.textContent = `jumphash · ${VIEW_LABELS[view]}`;
    document.documentElement.dataset['theme'] = app.state.theme;
  },
  onStateWritten: updateOpenLink,
});

updateOpenLink(location.hash.slice(1));

let lastHeight = -1;
function postHeight(): void {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === lastHeight) return;
  lastHeight = height;
  if (window.parent !== window) window.parent.postMessage({ type: 'jumphash:height', height }, '*');
}
new ResizeObserver(postHeight).observe(document.documentElement);

void app.start().then(() => {
  document.documentElement.dataset['theme'] = app.state.theme;
  updateOpenLink(location.hash.slice(1));
  postHeight();
});
