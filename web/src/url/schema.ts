// The playground's state: its fields, their defaults, what each view shows,
// which fields each link schema version knows, and the checks both link
// forms (readable.ts, compact.ts) and scenario files (file.ts) apply to a
// field's value.
//
// Every field value is kept as the text the user typed (a key, n, a key
// list, a node list): the views validate them and show errors next to the
// field, so a bad value in a link is shown, not silently replaced. The field
// checks catch only what has no meaning at all (an unknown view, theme,
// algorithm, topology or problem; a claim id of the wrong shape; text longer
// than a link carries): such a value is dropped, the field keeps its
// default, and the drop is reported (FieldChecks.dropped) while the rest of
// the scenario loads. A link whose envelope is damaged (bad checksum,
// truncated or future-version payload) loads nothing (LinkError).

/** The schema the encoder writes; the decoder reads 1 ..= SCHEMA_VERSION. */
export const SCHEMA_VERSION = 5;

export const VIEWS = ['compute', 'resize', 'balance', 'exercise', 'compare', 'claims'] as const;
export type View = (typeof VIEWS)[number];

export const THEMES = ['auto', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** What Compute, Resize, Balance and Compare place keys on: a bucket count
 *  (the fields n, from, to) or a list of named nodes (nodes, steps). */
export const TOPOLOGY_KINDS = ['count', 'nodes'] as const;
export type TopologyKind = (typeof TOPOLOGY_KINDS)[number];

/** Ids of the exercise's problem sets (web/src/views/problems.ts has their
 *  scripts and texts): the exercise console opens them with the expected
 *  output hidden until the student asks for it. */
export const PROBLEM_IDS = ['key-42', 'largest-key', 'resize-10-12', 'trace-42', 'strings', 'exercise'] as const;

export interface State {
  view: View;
  /** Selected algorithms (names of the engine's algorithms()), at least one. */
  algos: string[];
  /** Compute: the key as typed (decimal, 0x hex or "string"). */
  key: string;
  /** Compute and Balance: the bucket count as typed. */
  n: string;
  /** Compute: largest bucket count of the jump history. */
  trace: string;
  /** Resize: bucket count before. */
  from: string;
  /** Resize: bucket count after, or a comma-separated chain "12, 11, 16". */
  to: string;
  /** Resize, Balance, Compare: the key set in the KEYS syntax. */
  keys: string;
  /** Exercise console: the script. */
  script: string;
  /** Exercise console: a problem set's id (one of PROBLEM_IDS), or '' for the
   *  free console. In a problem the page supplies the script. (schema 4) */
  problem: string;
  /** Whether Compute/Resize/Balance/Compare run on bucket counts or on the
   *  node list. (schema 5) */
  topology: TopologyKind;
  /** The node list as typed: names separated by newlines, spaces or commas
   *  (see splitList), a weight as `name*3`, names holding spaces, commas,
   *  '#', '*' or '"' double-quoted as in the command language's NODES:
   *  `"cache 4"*2`. (schema 5) */
  nodes: string;
  /** The edits applied to the node list, in order, as typed: `-name` removes
   *  any node, `+name` or `+name*w` adds one, `=name*w` changes a weight;
   *  separated as in `nodes`. (schema 5) */
  steps: string;
  /** Algorithm options as typed, `algorithm.option=value` separated as in
   *  `nodes`, e.g. `maglev.table=251 groupcache.replicas=50`; '' for none.
   *  (schema 5) */
  opts: string;
  /** Claims view: the id of the claim a link opens (its row scrolled to and
   *  highlighted), or '' for none. Checked for the shape of an id here; the
   *  view says when no claim has it. (schema 5, an optional field: written
   *  only when set, so links without it still open in older pages) */
  claim: string;
  /** Exercise workspace: the language of a program a link shares ('js' or
   *  'python'), or '' when the link carries none. (schema 5, optional) */
  lang: string;
  /** Exercise workspace: the program's text, only when the student chose
   *  "Copy a link with my program"; never written otherwise. (schema 5,
   *  optional) */
  code: string;
  /** Embed page theme. */
  theme: Theme;
}

export const DEFAULT_SCRIPT = [
  '# The exercise: jump hash, its reports, and the 64-bit trap',
  'HASH 42 100',
  'HASH 18446744073709551615 100',
  'KEYS 0..9',
  'BUCKETS 10',
  'MOVED 10 12',
  'LOAD 4',
  'TRACE 42 800',
  '',
].join('\n');

/** Ten nodes cache-1 .. cache-10, one per line. */
export const DEFAULT_NODES = Array.from({ length: 10 }, (_, i) => `cache-${i + 1}`).join('\n');

/** Remove a middle node: the scenario consistent hashing is for. */
export const DEFAULT_STEPS = '-cache-3';

/** Schema 5's defaults (those of schema 4 plus the node fields). Changing one
 *  changes what old readable links mean: that needs a new schema version and
 *  a decoder for the old one. Field order is the compact payload's order. */
export const DEFAULT_STATE: Readonly<State> = Object.freeze({
  view: 'compute',
  algos: ['jump', 'jumpback'],
  key: '42',
  n: '100',
  trace: '1000',
  from: '10',
  to: '12',
  keys: '0..9999',
  script: DEFAULT_SCRIPT,
  problem: '',
  topology: 'count',
  nodes: DEFAULT_NODES,
  steps: DEFAULT_STEPS,
  opts: '',
  claim: '',
  lang: '',
  code: '',
  theme: 'auto',
});

export function defaultState(): State {
  return { ...DEFAULT_STATE, algos: [...DEFAULT_STATE.algos] };
}

/** Every field of State, in the compact payload's order. */
export const STATE_FIELDS = Object.keys(DEFAULT_STATE) as readonly (keyof State)[];

/**
 * Which fields each view shows, per topology; a readable link always writes
 * them (and any other field that differs from its default). On a node list
 * the bucket-count fields (n, from, to) give way to the node fields.
 */
export const VIEW_FIELDS: Readonly<Record<View, Readonly<Record<TopologyKind, readonly (keyof State)[]>>>> = {
  compute: { count: ['algos', 'key', 'n', 'trace'], nodes: ['algos', 'key', 'nodes'] },
  resize: { count: ['algos', 'from', 'to', 'keys'], nodes: ['algos', 'nodes', 'steps', 'keys'] },
  balance: { count: ['algos', 'n', 'keys'], nodes: ['algos', 'nodes', 'keys'] },
  exercise: { count: ['script'], nodes: ['script'] },
  compare: { count: ['from', 'to', 'n', 'keys'], nodes: ['nodes', 'steps', 'keys'] },
  claims: { count: [], nodes: [] },
};

/** The fields `state`'s view shows under its topology. */
export function viewFields(state: Pick<State, 'view' | 'topology'>): readonly (keyof State)[] {
  return VIEW_FIELDS[state.view][state.topology];
}

/** Fields that mean something only on a node list: a readable link writes
 *  them only when the topology is 'nodes'. */
export const NODE_LIST_FIELDS: readonly (keyof State)[] = ['nodes', 'steps'];

/** Fields in the list syntax (see splitList), with the separator a readable
 *  link's list is shown with once opened: one node per line, steps and
 *  options on one line. */
export const LIST_FIELD_SEPARATOR: Readonly<Partial<Record<keyof State, string>>> = {
  nodes: '\n',
  steps: ' ',
  opts: ' ',
};

/** Fields that old links may carry and that are read and dropped: `output`
 *  (v=3 and the readable links the v=3 page wrote) is a student's work and
 *  is never taken from, or put into, a link. */
export const DROPPED_FIELDS: readonly string[] = ['output'];

/** Fields each compact schema version's payload may hold. */
export const FIELDS_OF_VERSION: Readonly<Record<number, readonly string[]>> = {
  1: ['view', 'algos', 'key', 'n', 'trace', 'from', 'to', 'keys', 'script', 'theme'],
  2: ['algos', 'key', 'n', 'trace', 'from', 'to', 'keys', 'script'],
  3: ['algos', 'key', 'n', 'trace', 'from', 'to', 'keys', 'script', 'output'],
  4: ['algos', 'key', 'n', 'trace', 'from', 'to', 'keys', 'script', 'problem'],
  5: ['algos', 'key', 'n', 'trace', 'from', 'to', 'keys', 'script', 'problem', 'topology', 'nodes', 'steps', 'opts',
      'claim', 'lang', 'code'],
};

/** Fields of the current schema that a compact payload holds only when they
 *  differ from their default: added to schema 5 later, so links that do not
 *  use them still open in pages that predate them (which reject a link that
 *  does, as a field they do not know). */
export const OPTIONAL_FIELDS: readonly (keyof State)[] = ['claim', 'lang', 'code'];

/** Languages a shared program may be in (the workspace's languages). */
export const PROGRAM_LANGUAGES = ['js', 'python'] as const;

/** Longest claim id a link may carry. */
export const MAX_CLAIM_ID_LENGTH = 80;

/** Longest text field accepted from a link, in UTF-16 code units (a pasted
 *  key or node list may be long): the core's limits table row
 *  `link-field-chars`, enforced by the page. The page reads the core's value
 *  (limits().maxLinkFieldChars) when the engine reports it. */
export const MAX_FIELD_LENGTH = 1_000_000;

/**
 * Longest whole URL the page writes into the address bar or a copied link
 * (page address, '#' and fragment), in UTF-16 code units. Chromium refuses
 * URLs longer than url::kMaxURLChars = 2 * 1024 * 1024 = 2,097,152
 * characters (Chromium's url/url_constants.h): history.replaceState with a
 * longer URL is dropped without an error, and after a reload the state is
 * gone. 2,000,000 keeps 97,152 characters of room for a longer page address
 * (embed.html, a deep sub-path). A state whose link would be longer is not
 * written: the page says so and offers a scenario file instead. The core's
 * limits table row `link-chars` (the page reads limits().maxLinkChars when
 * the engine reports it).
 */
export const MAX_LINK_LENGTH = 2_000_000;

/** Text fields of State (every field but `algos`), in the compact payload's order. */
export const TEXT_FIELDS = STATE_FIELDS.filter((field) => field !== 'algos') as readonly Exclude<keyof State, 'algos'>[];

/** A UTF-16 code unit of a surrogate pair without its partner: text that no
 *  UTF-8 encoding (a link's percent-encoding, TextEncoder) can carry. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` with each lone surrogate (invalid UTF-16, e.g. half of an emoji
 * left by a cut) replaced by U+FFFD, the replacement character, as UTF-8
 * encoders do; `replaced` counts them, `first` is the index of the first
 * (-1 when none). The length does not change.
 */
export function wellFormed(text: string): { text: string; replaced: number; first: number } {
  let replaced = 0;
  let first = -1;
  const fixed = text.replace(LONE_SURROGATE, (_unit, offset: number) => {
    if (replaced++ === 0) first = offset;
    return '\uFFFD';
  });
  return { text: fixed, replaced, first };
}

/**
 * Splits list text (nodes, steps, opts) into its items: items are separated
 * by whitespace or commas; a double-quoted part (`"cache 4"*2`, `-"a,b"`)
 * may hold both, with `\"` and `\\` escaping inside the quotes, as the
 * command language quotes names. Items are returned as written (quotes and
 * escapes kept). Returns null when a quote is not closed: such text cannot
 * be split, and the page shows it as typed (the view reports the error).
 */
export function splitList(text: string): string[] | null {
  const items: string[] = [];
  let item = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      item += c;
      if (c === '\\' && i + 1 < text.length) item += text[++i]!;
      else if (c === '"') quoted = false;
    } else if (c === ',' || /\s/.test(c)) {
      if (item !== '') items.push(item);
      item = '';
    } else {
      item += c;
      if (c === '"') quoted = true;
    }
  }
  if (quoted) return null;
  if (item !== '') items.push(item);
  return items;
}

/** Thrown by a check: the value (or, from the decoders, the whole link)
 *  has no meaning. decodeFragment turns an uncaught one into { ok: false }. */
export class LinkError extends Error {}

export function fail(message: string): never {
  throw new LinkError(message);
}

export function truncate(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A value of a link or file that was not used as given, and why. */
export interface DroppedValue {
  /** The parameter as the link or file names it: "theme", "algo", "keys", "script". */
  field: string;
  /** What was wrong, what is allowed, and what the page used instead. */
  message: string;
}

/** What the field checks need besides a value, and where their findings go. */
export interface FieldChecks {
  /** Algorithm names a scenario may select (the engine's algorithms(), in its order). */
  known: readonly string[];
  /** Longest text field accepted, in UTF-16 code units: MAX_FIELD_LENGTH
   *  (or the core's maxLinkFieldChars) for a link, Infinity for a file
   *  (whose size is bounded as a whole). */
  maxFieldChars: number;
  /** Where the values come from, for messages: "link" or "file". */
  source: 'link' | 'file';
  /** Values dropped or repaired so far, in the order met. */
  dropped: DroppedValue[];
}

/** Checks for a link: MAX_FIELD_LENGTH per field unless `maxFieldChars` is given. */
export function linkChecks(known: readonly string[], maxFieldChars = MAX_FIELD_LENGTH): FieldChecks {
  return { known, maxFieldChars, source: 'link', dropped: [] };
}

function checkChoice<T extends string>(what: string, value: unknown, choices: readonly T[]): T {
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    fail(`Unknown ${what} "${truncate(String(value))}": expected one of ${choices.join(', ')}.`);
  }
  return value as T;
}

export function checkView(value: unknown): View {
  return checkChoice('view', value, VIEWS);
}

export function checkTheme(value: unknown): Theme {
  return checkChoice('theme', value, THEMES);
}

export function checkTopology(value: unknown): TopologyKind {
  return checkChoice('topology', value, TOPOLOGY_KINDS);
}

/** '' or a claim id's shape: lower-case letters and digits joined by '-'.
 *  Whether a claim has that id is the Claims view's to say. */
function checkClaim(value: unknown, checks: FieldChecks): string {
  const text = checkText('claim', value, checks);
  if (text === '') return '';
  if (text.length > MAX_CLAIM_ID_LENGTH || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(text)) {
    fail(
      `The ${checks.source}'s claim "${truncate(text)}" is not a claim id: ids are lower-case letters and digits ` +
        `joined by "-" (at most ${MAX_CLAIM_ID_LENGTH} characters), e.g. jump-key-42-history.`,
    );
  }
  return text;
}

function checkLanguage(value: unknown): string {
  if (value === '') return '';
  return checkChoice('program language', value, PROGRAM_LANGUAGES);
}

function checkProblem(value: unknown): string {
  if (value === '') return '';
  return checkChoice('problem', value, PROBLEM_IDS);
}

/**
 * Lower-cases, de-duplicates and checks algorithm names against
 * `checks.known`. An unknown name is left out and reported under `name`;
 * the known ones are kept. Throws LinkError when none is left.
 */
function checkAlgos(names: string[], checks: FieldChecks, name: string): string[] {
  const out: string[] = [];
  for (const raw of names) {
    const algorithm = raw.trim().toLowerCase();
    if (algorithm === '') continue;
    if (!checks.known.includes(algorithm)) {
      checks.dropped.push({
        field: name,
        message: `Unknown algorithm "${truncate(raw)}": expected ${checks.known.join(', ')}. It was left out.`,
      });
      continue;
    }
    if (!out.includes(algorithm)) out.push(algorithm);
  }
  if (out.length === 0) {
    fail(`The ${checks.source} selects no algorithm${checks.source === 'link' ? ': give at least one, e.g. algo=jump.' : '.'}`);
  }
  return out;
}

/**
 * `value` as a text field's value: text of at most `checks.maxFieldChars`
 * UTF-16 code units; lone surrogates (invalid UTF-16, which a link built
 * by hand can carry in a compact payload's JSON escapes) are replaced by
 * U+FFFD and reported under `field`. Throws LinkError otherwise.
 */
export function checkText(field: string, value: unknown, checks: FieldChecks): string {
  if (typeof value !== 'string') fail(`The ${checks.source} is corrupted: field "${field}" is not text.`);
  if (value.length > checks.maxFieldChars) {
    fail(
      `The ${checks.source}'s "${field}" is longer than ${checks.maxFieldChars} characters ` +
        `(${value.length.toLocaleString('en-US')}); a ${checks.source} carries at most ${checks.maxFieldChars.toLocaleString('en-US')} per field.`,
    );
  }
  const repaired = wellFormed(value);
  if (repaired.replaced > 0) {
    checks.dropped.push({
      field,
      message:
        `The ${checks.source}'s "${field}" holds invalid UTF-16 text (${repaired.replaced} lone surrogate` +
        `${repaired.replaced === 1 ? '' : 's'}, the first at character ${repaired.first + 1}): ` +
        'each was replaced by U+FFFD (�); the rest of the text was loaded.',
    });
  }
  return repaired.text;
}

/** What a field falls back to when its value is dropped, for messages. */
function defaultNote(field: keyof State): string {
  const value = field === 'algos' ? DEFAULT_STATE.algos.join(', ') : DEFAULT_STATE[field];
  if (value === '') return 'It was left empty.';
  if (value.length > 40 || value.includes('\n')) return 'It keeps its default.';
  return `Using the default, ${value}.`;
}

/**
 * Sets `state[field]` from a link's or file's value (text, or for `algos`
 * a comma-separated text or a list of names). A value that has no meaning
 * is dropped: the field keeps its value (the default), and what was wrong
 * goes to `checks.dropped` under `name` (the parameter as the link names
 * it; default: the field). Never throws.
 */
export function assignField(
  state: State,
  field: keyof State,
  value: unknown,
  checks: FieldChecks,
  name: string = field,
): void {
  try {
    switch (field) {
      case 'view':
        state.view = checkView(value);
        break;
      case 'theme':
        state.theme = checkTheme(value);
        break;
      case 'topology':
        state.topology = checkTopology(value);
        break;
      case 'problem':
        state.problem = checkProblem(value);
        break;
      case 'claim':
        state.claim = checkClaim(value, checks);
        break;
      case 'lang':
        state.lang = checkLanguage(value);
        break;
      case 'algos':
        if (typeof value === 'string') state.algos = checkAlgos(value.split(','), checks, name);
        else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
          state.algos = checkAlgos(value as string[], checks, name);
        } else fail(`The ${checks.source} is corrupted: "${name}" is not a list of names.`);
        break;
      default:
        state[field] = checkText(name, value, checks);
    }
  } catch (error) {
    if (!(error instanceof LinkError)) throw error;
    checks.dropped.push({ field: name, message: `${error.message} ${defaultNote(field)}` });
  }
}
