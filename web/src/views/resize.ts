// Resize: a scenario editor. On bucket counts, what moves when n goes from ->
// to (or along a chain); on a node list, what each change (remove any node,
// add one, change a weight, fail then restore) moves, from which node to
// which. Runs in the jobs worker with progress and Cancel; algorithms side by
// side on the same keys. The cards are in ./resize/.

import type { Field, ResizeOutcome, ResizeReply } from '../engine/protocol';
import { type FieldControl, parseChain, parseCount } from '../ui/controls';
import { fixed, grouped, h, percent, plain } from '../ui/dom';
import { type ScenarioControl, scenarioControl } from '../ui/scenario';
import {
  type AppContext,
  type ViewInstance,
  countField,
  stateAlgorithmPicker,
  stateField,
} from './context';
import { largestNodeList } from './shared/algorithms';
import { keysField as makeKeysField } from './shared/keysField';
import { exampleLinks } from './shared/examples';
import { lazyCards, reportView } from './reportView';
import { renumbered } from './resize/renumbered';

import { MAX_RESIZE_BUCKETS, MOVED_SAMPLE_LIMIT } from './resize/limits';

export { MAX_RESIZE_BUCKETS, MOVED_SAMPLE_LIMIT };

/** Ten memcached-style servers, the presets' cluster. */
const CACHE_NODES = Array.from({ length: 10 }, (_, i) => `cache-${i + 1}`).join(',');

/** The reply's outcomes grouped per step: `steps[i]` holds every algorithm's outcome of step i. */
export function outcomesByStep(reply: ResizeReply): ResizeOutcome[][] {
  const perAlgorithm = new Map<string, ResizeOutcome[]>();
  for (const outcome of reply.steps) {
    const list = perAlgorithm.get(outcome.algorithm) ?? [];
    list.push(outcome);
    perAlgorithm.set(outcome.algorithm, list);
  }
  const steps: ResizeOutcome[][] = [];
  for (const list of perAlgorithm.values()) {
    list.forEach((outcome, i) => (steps[i] ??= []).push(outcome));
  }
  return steps;
}

export function resizeView(context: AppContext): ViewInstance {
  const { state } = context;
  const fields: Partial<Record<Field, FieldControl>> = {};
  // Made below with the report's rerun; read only when a report runs.
  let scenario!: ScenarioControl;
  const report = reportView<'resize'>({
    fields,
    scenario: () => scenario,
    build() {
      let sizes: number[] = [];
      if (!scenario.onNodes()) {
        const from = parseCount(state.from, 'from', 1, MAX_RESIZE_BUCKETS);
        const chain = parseChain(state.to, 'to', 1, MAX_RESIZE_BUCKETS);
        if (typeof from === 'string') fromField.setError(from);
        if (typeof chain === 'string') toField.setError(chain);
        if (typeof from === 'string' || typeof chain === 'string') return null;
        sizes = [from, ...chain];
      } else if (state.steps.trim() === '') {
        scenario.showError('steps', 'Type at least one change: -name removes a node, +name or +name*2 adds one, =name*3 changes a weight.');
        return null;
      }
      return keysField.withSpec((keys) => ({
        kind: 'resize' as const,
        algos: state.algos,
        keys,
        sizes,
        scenario: scenario.scenario(),
        sampleLimit: MOVED_SAMPLE_LIMIT,
      }));
    },
    render,
    summary: (reply) => `${grouped(reply.keyCount)} keys × ${reply.steps.length} resize report(s)`,
  });
  const { progress, results, rerun } = report;

  const fromField = countField(context, 'from', 'From n buckets', rerun);
  // Not numeric: a chain needs commas, which numeric keypads lack.
  const toField = stateField(context, 'to', { label: 'To n buckets', hint: 'Or a chain: 12, 11, 16', width: 'narrow' }, rerun);
  const keysField = makeKeysField(context, rerun, { countAhead: true });
  const picker = stateAlgorithmPicker(context, rerun);
  scenario = scenarioControl(context, { steps: true, countFields: [fromField.root, toField.root], rerun });
  Object.assign(fields, { from: fromField, to: toField, keys: keysField });
  const info = (name: string) => context.algorithms.find((a) => a.name === name);

  function render(reply: ResizeReply): void {
    const byStep = outcomesByStep(reply);
    const counter = new Map<string, number>();
    const rows = reply.steps.map((outcome, index) => {
      const stepIndex = counter.get(outcome.algorithm) ?? 0;
      counter.set(outcome.algorithm, stepIndex + 1);
      const suffix = stepIndex === 0 ? '' : `-${stepIndex}`;
      const head = [
        h('th', { scope: 'row' }, h('code', {}, outcome.algorithm)),
        h('td', {}, outcome.label),
      ];
      const result = outcome.result;
      if (!result) {
        return h(
          'tr',
          {},
          ...head,
          h('td', { colspan: 6, class: 'field-error', 'data-testid': `error-${outcome.algorithm}${suffix}` }, outcome.error ?? 'No result.'),
        );
      }
      const ratio = result.minimumMovedExpected > 0 ? result.moved / result.minimumMovedExpected : null;
      return h(
        'tr',
        {},
        ...head,
        h('td', { class: 'num', 'data-testid': index === 0 ? 'total-keys' : undefined }, plain(result.total)),
        h('td', { class: 'num big', 'data-testid': `moved-${outcome.algorithm}${suffix}` }, plain(result.moved)),
        h('td', { class: 'num' }, percent(result.moved, result.total)),
        h('td', { class: 'num', 'data-testid': `minimum-${outcome.algorithm}${suffix}` }, fixed(result.minimumMovedExpected, 1)),
        h('td', { class: 'num' }, ratio === null ? '—' : `${fixed(ratio, 2)}×`),
        h('td', {}, renumbered(info(outcome.algorithm), result) ? 'renumbers the list' : ''),
      );
    });
    const summary = h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'summary' },
        h('caption', {}, 'Moved keys against the fewest any scheme must move'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...['Algorithm', scenario.onNodes() ? 'Change' : 'Resize', 'Keys', 'Moved', 'Moved fraction', 'Minimum (expected)', 'Moved / minimum', 'Note'].map(
              (label, i) => h('th', { scope: 'col', class: i >= 2 && i <= 6 ? 'num' : undefined }, label),
            ),
          ),
        ),
        h('tbody', {}, ...rows),
      ),
    );
    const details = h('div', { class: 'cards' });
    const selector = byStep.length > 1 ? stepSelector(byStep, details) : null;
    results.replaceChildren(summary, ...(selector ? [selector] : []), details);
    showDetails(details, byStep[0] ?? [], 0);
  }

  function stepSelector(byStep: ResizeOutcome[][], details: HTMLElement): HTMLElement {
    const select = h(
      'select',
      { id: 'resize-step', 'data-testid': 'resize-step' },
      ...byStep.map((outcomes, i) => h('option', { value: String(i) }, `${i + 1}. ${outcomes[0]?.label ?? ''}`)),
    );
    select.addEventListener('change', () => {
      const i = Number(select.value);
      showDetails(details, byStep[i] ?? [], i);
    });
    return h('div', { class: 'field' }, h('label', { for: 'resize-step' }, 'Details for the step'), select);
  }

  // The cards (charts, flow matrices, moved keys) load on first use.
  const showCards = lazyCards(() => import('./resize/card'), 'details');
  function showDetails(container: HTMLElement, outcomes: ResizeOutcome[], stepIndex: number): void {
    if (context.embedded) {
      container.replaceChildren();
      return;
    }
    showCards(container, ({ outcomeCard }) =>
      outcomes.map((outcome) => outcomeCard(outcome, { info: info(outcome.algorithm), sampleLimit: MOVED_SAMPLE_LIMIT, stepTag: `step-${stepIndex + 1}` })),
    );
  }

  const nodes = `nodes=${CACHE_NODES}`;
  const examples = exampleLinks(context, [
    ['#view=resize&algo=jump,jumpback,modulo&from=10&to=12&keys=0..9999', '10 → 12 (the paper’s example)'],
    ['#view=resize&algo=jumpback,jumpback-indep&from=16&to=4&keys=random:600000:1', '16 → 4: JumpBackHash’s skewed flows'],
    ['#view=resize&algo=jump,jumpback&from=10&to=12,11,16&keys=random:100000:7', 'a chain 10, 12, 11, 16'],
    ['#view=resize&algo=jump,jumpback&from=10&to=12&keys=random:10000000:1', '10^7 random keys'],
    [`#view=resize&algo=ketama&${nodes}&steps=-cache-3&keys=random:100000:1`, '10 memcached servers under ketama: remove cache-3'],
    [`#view=resize&algo=ketama,jump,memento,rendezvous&${nodes}&steps=-cache-3&keys=random:100000:1`, 'the same under ketama, jump, memento, rendezvous'],
    [`#view=resize&algo=ketama,maglev,rendezvous&${nodes}&steps=+big-1*2,+big-2*2&keys=random:100000:1`, 'add two larger nodes (+big*2)'],
    [`#view=resize&algo=ketama,jump,memento&${nodes}&steps=-cache-3,+cache-3&keys=random:100000:1`, 'fail then restore cache-3'],
  ]);

  const nodeLimit = largestNodeList(context);
  const root = h(
    'section',
    { class: 'view', 'aria-labelledby': 'view-title' },
    h('h2', { id: 'view-title' }, 'Resize: what moves when buckets or nodes change, and where?'),
    h('div', { class: 'inputs' }, scenario.root, fromField.root, toField.root, keysField.root, picker),
    h(
      'p',
      { class: 'hint' },
      `Bucket counts 1..${grouped(MAX_RESIZE_BUCKETS)}; node lists up to ${grouped(nodeLimit)} nodes; ` +
        `the flow matrix is kept up to 4,194,304 cells; the first ${grouped(MOVED_SAMPLE_LIMIT)} moved keys are listed.`,
    ),
    examples,
    progress.root,
    results,
  );
  void report.run();
  return {
    root,
    destroy: () => {
      report.destroy();
      keysField.destroy();
    },
  };
}
