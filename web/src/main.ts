// The playground page (index.html).

import './style.css';
import './main.css';
import { App, VIEW_LABELS } from './app';
import { engine } from './engine/client';
import { h } from './ui/dom';
import { downloadText, readChosenFile } from './ui/scenarioFile';
import { VIEWS, type View } from './url';
import { SCENARIO_FILE_NAME, scenarioFile } from './url/file';
import { tooLargeMessage } from './url/messages';

const main = document.getElementById('main')!;
const banner = document.getElementById('link-banner')!;
const nav = document.getElementById('views')!;
const shareOutput = document.getElementById('share-output') as HTMLTextAreaElement;
const shareStatus = document.getElementById('share-status')!;
const shareBox = document.getElementById('share-box')!;
const notice = document.getElementById('link-notice')!;
const fileStatus = document.getElementById('file-status')!;
const importInput = document.getElementById('import-file') as HTMLInputElement;

const buttons = new Map<View, HTMLButtonElement>();
const app = new App({
  embedded: false,
  main,
  banner,
  notice,
  exportScenario: () => exportScenario(),
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
  // The link made for the unchanged state answers at once; otherwise make it now.
  const link = app.currentLink() ?? (await app.writeNow());
  shareBox.hidden = false;
  if (!link.ok) {
    // Nothing to copy: a link of this state would not open.
    shareOutput.value = '';
    delete shareOutput.dataset['kind'];
    shareStatus.textContent = `${tooLargeMessage(link)}: Export it as a file to keep it (Export file, above).`;
    return;
  }
  const fragment = link.fragment;
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

/** Export: the state as a scenario file (jumphash-scenario.json). */
function exportScenario(): void {
  const { text, repaired } = scenarioFile(app.state);
  downloadText(SCENARIO_FILE_NAME, text);
  app.markExported();
  const note = repaired.length > 0 ? ' Invalid UTF-16 text in it was saved as U+FFFD, as in a link.' : '';
  fileStatus.textContent = `Exported the scenario as ${SCENARIO_FILE_NAME} (${text.length.toLocaleString('en-US')} characters).${note}`;
  fileStatus.hidden = false;
}

document.getElementById('export-scenario')!.addEventListener('click', exportScenario);
document.getElementById('import-scenario')!.addEventListener('click', () => importInput.click());
importInput.addEventListener('change', () => {
  const file = importInput.files?.[0];
  importInput.value = ''; // choosing the same file again imports it again
  if (!file) return;
  void (async () => {
    fileStatus.hidden = false;
    const read = await readChosenFile(file);
    if (!read.ok) {
      fileStatus.textContent = `Nothing was imported. ${read.error}`;
      return;
    }
    const result = await app.importScenario(read.text);
    fileStatus.textContent = !result.ok
      ? `Nothing was imported from ${file.name}: see the message above.`
      : result.dropped.length > 0
        ? `Imported ${file.name}, without the values named above.`
        : `Imported ${file.name}.`;
  })();
});

// The playground's links are often compact (pasted key lists, long
// scripts): fetch that code with the page, not at the first Copy link. (The
// embed page loads it only when a link needs it.)
void import('./url/compact');

void app.start().then(() => {
  const version = document.getElementById('version');
  if (version) version.textContent = `jumphash ${app.version}`;
});
// Start the report workers early so the first long report does not wait for
// them: a worker's module takes 200-400 ms to start (the Resize view over
// 10^8 keys on 2 workers took 1.8 s with the second worker started by the
// report, e2e/bench/reports.bench.ts). An embed starts its workers with its
// first report.
setTimeout(() => engine.reports.warm(), 500);
