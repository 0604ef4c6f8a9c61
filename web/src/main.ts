// The playground page (index.html).

import './style.css';
import { App, VIEW_LABELS } from './app';
import { engine } from './engine/client';
import { h } from './ui/dom';
import { VIEWS, type View } from './url';

const main = document.getElementById('main')!;
const banner = document.getElementById('link-banner')!;
const nav = document.getElementById('views')!;
const shareOutput = document.getElementById('share-output') as HTMLTextAreaElement;
const shareStatus = document.getElementById('share-status')!;
const shareBox = document.getElementById('share-box')!;

const buttons = new Map<View, HTMLButtonElement>();
const app = new App({
  embedded: false,
  main,
  banner,
  onViewChange: (view) => {
    for (const [name, button] of buttons) {
      if (name === view) button.setAttribute('aria-current', 'page');
      else button.removeAttribute('aria-current');
    }
    document.title = `${VIEW_LABELS[view]} · jumphash playground`;
  },
});

for (const view of VIEWS) {
  const button = h('button', { type: 'button', 'data-view': view, 'data-testid': `tab-${view}` }, VIEW_LABELS[view]);
  button.addEventListener('click', () => app.show(view));
  buttons.set(view, button);
  nav.append(button);
}

async function share(kind: 'link' | 'embed'): Promise<void> {
  const fragment = await app.writeNow();
  const pageUrl = new URL(location.href);
  pageUrl.hash = fragment;
  let text: string;
  if (kind === 'link') {
    text = pageUrl.toString();
  } else {
    const embedUrl = new URL('embed.html', pageUrl);
    embedUrl.hash = fragment;
    const title = `jumphash playground: ${VIEW_LABELS[app.state.view]}`;
    text = `<iframe src="${embedUrl.toString().replace(/"/g, '&quot;')}" title="${title}" width="100%" height="360" style="border:0" loading="lazy"></iframe>`;
  }
  shareBox.hidden = false;
  shareOutput.value = text;
  shareOutput.dataset['kind'] = kind;
  shareOutput.select();
  const lengthNote = text.length > 2000 ? ` It is ${text.length.toLocaleString('en-US')} characters long: some chat tools cut long links.` : '';
  try {
    await navigator.clipboard.writeText(text);
    shareStatus.textContent = `${kind === 'link' ? 'Link' : 'Embed code'} copied.${lengthNote}`;
  } catch {
    shareStatus.textContent = `Select the ${kind === 'link' ? 'link' : 'embed code'} below and copy it.${lengthNote}`;
  }
}

document.getElementById('copy-link')!.addEventListener('click', () => void share('link'));
document.getElementById('copy-embed')!.addEventListener('click', () => void share('embed'));

void app.start().then(() => {
  const version = document.getElementById('version');
  if (version) version.textContent = `jumphash ${app.version}`;
});
// Start the report worker early so the first long report does not wait for it.
setTimeout(() => engine.jobs.warm(), 500);
