import { describe, expect, it } from 'vitest';
import { lazyCards } from './reportView';

/** A stand-in for a container element: what replaceChildren put in it. */
function container(): { element: HTMLElement; children: () => unknown[] } {
  let children: unknown[] = [];
  const element = { replaceChildren: (...nodes: unknown[]) => void (children = nodes) } as unknown as HTMLElement;
  return { element, children: () => children };
}

const card = (text: string) => text as unknown as HTMLElement;

describe('lazyCards', () => {
  it('loads the module once, and the latest call fills its container', async () => {
    let loads = 0;
    let resolve!: (module: { label: string }) => void;
    const show = lazyCards(() => {
      loads++;
      return new Promise<{ label: string }>((r) => (resolve = r));
    }, 'cards');
    const first = container();
    const second = container();
    show(first.element, ({ label }) => [card(`first ${label}`)]);
    show(second.element, ({ label }) => [card(`second ${label}`)]);
    resolve({ label: 'card' });
    await new Promise((r) => setTimeout(r, 0));
    expect(loads).toBe(1);
    expect(first.children(), 'an earlier call still waiting when a later one came').toEqual([]);
    expect(second.children()).toEqual(['second card']);
    const third = container();
    show(third.element, ({ label }) => [card(`third ${label}`)]);
    await new Promise((r) => setTimeout(r, 0));
    expect(loads).toBe(1);
    expect(third.children()).toEqual(['third card']);
  });
});
