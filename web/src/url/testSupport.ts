// Helpers of the link codec's tests (not part of the page).

import { type State, decodeFragment, defaultState } from './index';

/** Algorithm names as the engine's algorithms() reports them (bucket-count
 *  ones first). The page never uses a list like this: it asks the engine. */
export const KNOWN_ALGORITHMS: readonly string[] = [
  'jump', 'jump-guava', 'jumpback', 'jumpback-indep', 'modulo', 'ketama', 'libketama', 'nginx', 'groupcache',
  'rendezvous', 'envoy-ring', 'maglev', 'memento', 'memento-java',
];

/** The names of the schema-4 page (bucket-count algorithms only). */
export const BUCKET_COUNT_ALGORITHMS: readonly string[] = ['jump', 'jump-guava', 'jumpback', 'jumpback-indep', 'modulo'];

/** The state of a link that opens whole: no value dropped. */
export async function decodeOk(fragment: string, known: readonly string[] = KNOWN_ALGORITHMS): Promise<State> {
  const result = await decodeFragment(fragment, known);
  if (!result.ok) throw new Error(`expected ${fragment} to decode, got: ${result.error}`);
  if (result.dropped.length > 0) {
    throw new Error(`expected ${fragment} to decode whole, got dropped: ${JSON.stringify(result.dropped)}`);
  }
  return result.state;
}

/** The messages (one per line) of the values a link that opens drops; throws
 *  when it drops none or loads nothing. */
export async function decodeDropped(fragment: string, known: readonly string[] = KNOWN_ALGORITHMS): Promise<string> {
  const result = await decodeFragment(fragment, known);
  if (!result.ok) throw new Error(`expected ${fragment} to open with a value dropped, got: ${result.error}`);
  if (result.dropped.length === 0) throw new Error(`expected ${fragment} to drop a value, got ${JSON.stringify(result.state)}`);
  return result.dropped.map((drop) => drop.message).join('\n');
}

export async function decodeError(fragment: string, known: readonly string[] = KNOWN_ALGORITHMS): Promise<string> {
  const result = await decodeFragment(fragment, known);
  if (result.ok) throw new Error(`expected ${fragment} to fail, got ${JSON.stringify(result.state)}`);
  return result.error;
}

export function sample(overrides: Partial<State>): State {
  return { ...defaultState(), ...overrides };
}

/** `count` distinct memcached-style names 10.0.x.y:11211, one per line. */
export function hostPortNodes(count: number): string {
  return Array.from({ length: count }, (_, i) => `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}:11211`).join('\n');
}
