// Where the report views place keys: on bucket counts (the views' own n /
// from / to fields) or on a cluster of named nodes, with the changes made to
// it (remove any node, add one, change a weight) and algorithm options.
// One control, bound to state.topology / nodes / steps / opts, shared by
// Compute, Resize, Balance and Compare. The text is parsed by the core in
// the worker; its messages come back and show next to the field they blame.

import type { NodeScenario, Field } from '../engine/protocol';
import type { AppContext } from '../views/context';
import { type FieldControl, field } from './controls';
import { h, uniqueId } from './dom';

export interface ScenarioControl {
  root: HTMLElement;
  /** The scenario to send with a request, or undefined on bucket counts. */
  scenario(): NodeScenario | undefined;
  /** True on a node list. */
  onNodes(): boolean;
  /** Shows an engine error next to the field it blames; false when the field is not one of ours. */
  showError(field: Field | undefined, message: string): boolean;
  clearErrors(): void;
}

/** The typed node list's names, roughly (for counts before the engine answers): tokens between separators. */
export function countTypedNodes(text: string): number {
  return text.split(/[\s,]+/).filter((token) => token !== '' && !token.startsWith('#')).length;
}

export function scenarioControl(
  context: AppContext,
  options: {
    /** Whether the view runs changes (Resize, Compare) or only the list (Compute, Balance). */
    steps: boolean;
    /** The view's bucket-count fields, hidden on a node list. */
    countFields: HTMLElement[];
    rerun: () => void;
  },
): ScenarioControl {
  const { state } = context;
  const name = uniqueId('topology');
  const radio = (value: 'count' | 'nodes', label: string) => {
    const input = h('input', { type: 'radio', name, value, 'data-testid': `topology-${value}` });
    input.checked = state.topology === value;
    input.addEventListener('change', () => {
      if (!input.checked) return;
      state.topology = value;
      context.changed();
      sync();
      options.rerun();
    });
    return h('label', { class: 'choice' }, input, ` ${label}`);
  };
  const bind = (key: 'nodes' | 'steps' | 'opts', control: Omit<Parameters<typeof field>[0], 'name' | 'value' | 'onInput'>) =>
    field({
      ...control,
      name: key,
      value: state[key],
      onInput: (value) => {
        state[key] = value;
        context.changed();
        if (key === 'nodes') summarize();
        options.rerun();
      },
    });
  const nodes: FieldControl = bind('nodes', {
    label: 'Nodes',
    multiline: true,
    width: 'wide',
    hint: 'One name per line, or separated by spaces or commas (e.g. 10.0.0.1:11211); a weight as name*3; quote names with spaces: "cache 1"*2.',
  });
  nodes.input.setAttribute('data-testid', 'nodes');
  const summary = h('p', { class: 'hint', 'data-testid': 'nodes-summary', 'aria-live': 'polite' });
  const steps: FieldControl | null = options.steps
    ? bind('steps', {
        label: 'Changes, in order',
        width: 'wide',
        hint: '-name removes any node, +name or +name*2 adds one, =name*3 changes a weight; "-a +a" fails a node then restores it.',
      })
    : null;
  steps?.input.setAttribute('data-testid', 'steps');
  const opts = bind('opts', {
    label: 'Algorithm options',
    width: 'wide',
    hint: 'algorithm.option=value, e.g. maglev.table=251 groupcache.replicas=50 ketama.mode=plain.',
  });
  opts.input.setAttribute('data-testid', 'opts');
  const nodeFields = h('div', { class: 'node-fields' }, nodes.root, summary, steps?.root ?? null, opts.root);
  const root = h(
    'fieldset',
    { class: 'scenario', 'data-testid': 'scenario' },
    h('legend', {}, 'Place keys on'),
    h('div', { class: 'choices' }, radio('count', 'Buckets 0..n-1'), radio('nodes', 'Named nodes')),
    nodeFields,
  );

  function summarize(): void {
    const count = countTypedNodes(state.nodes);
    summary.textContent = `${count} ${count === 1 ? 'node' : 'nodes'} typed`;
  }

  function sync(): void {
    const onNodes = state.topology === 'nodes';
    nodeFields.hidden = !onNodes;
    for (const element of options.countFields) element.hidden = onNodes;
  }
  summarize();
  sync();

  const controls: Partial<Record<Field, FieldControl>> = { nodes, opts, ...(steps ? { steps } : {}) };
  return {
    root,
    onNodes: () => state.topology === 'nodes',
    scenario: () =>
      state.topology === 'nodes' ? { nodes: state.nodes, steps: options.steps ? state.steps : '', opts: state.opts } : undefined,
    showError(blamed, message) {
      const control = blamed ? controls[blamed] : undefined;
      if (!control) return false;
      control.setError(message);
      return true;
    },
    clearErrors() {
      for (const control of Object.values(controls)) control?.setError(null);
    },
  };
}
