// Node scenarios as the page writes and shows them: shared by the worker
// (labels of resize steps) and the views.

import type { NodeChange } from 'jumphash-wasm';

/** How a change is written in the steps field: -name, +name, +name*w, =name*w. */
export function describeChange(change: NodeChange): string {
  if (change.kind === 'remove') return `-${change.name}`;
  const weight = change.weight ?? 1;
  if (change.kind === 'add') return weight === 1 ? `+${change.name}` : `+${change.name}*${weight}`;
  return `=${change.name}*${weight}`;
}
