import { describe, expect, test } from 'vitest';
import { StreamedOutput } from './streamedOutput';

describe('StreamedOutput', () => {
  test('keeps the shown text, the parts in order with their counts, and the errors', async () => {
    const output = new StreamedOutput();
    output.add({ id: 1, type: 'chunk', stream: 'stdout', text: '1: 0\n2: 1\n' });
    output.add({ id: 1, type: 'part', blob: new Blob(['1: 0\n2: 1\n']), chars: 10, lines: 2 });
    output.add({ id: 1, type: 'chunk', stream: 'stderr', text: 'line 3: error: x\n' });
    output.add({ id: 1, type: 'part', blob: new Blob(['3: 2\n']), chars: 5, lines: 1 });
    expect(output.shown).toBe('1: 0\n2: 1\n');
    expect(output.truncated).toBe(true);
    expect(output.chars).toBe(15);
    expect(output.lines).toBe(3);
    expect(output.errors).toBe('line 3: error: x\n');
    expect(await new Blob(output.blobParts()).text()).toBe('1: 0\n2: 1\n3: 2\n');
  });

  test('error lines are bounded, and what was dropped is counted', () => {
    const output = new StreamedOutput(8);
    output.add({ id: 1, type: 'chunk', stream: 'stderr', text: 'line 1: error: a\n' });
    output.add({ id: 1, type: 'chunk', stream: 'stderr', text: 'line 2: error: b\n' });
    expect(output.errors).toBe('line 1: ');
    expect(output.droppedErrorChars).toBe(26);
  });
});
