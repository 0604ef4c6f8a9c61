// A student's solution of the exercise in JavaScript, with the classic
// mistakes as switches: it makes the student outputs of the golden
// `jumphash check` transcripts in this directory, independently of the C++.
//
//   node tests/check/student.mjs MISTAKE < SCRIPT > OUTPUT
//
// MISTAKE: none | js-number | integer-division | key-as-double |
// key-as-number | off-by-one | estimate | no-wrap | jumpback-for-jump |
// separators. key-as-double hashes Number(key) but prints the key as
// written; key-as-number holds the key in a Number, so it also prints it
// from there ("18446744073709552000").
// It understands the commands the transcripts use: HASH, KEYS (decimal keys
// and ranges A..B), BUCKETS, MOVED, TRACE, and '#' comments.
// `no-wrap` stands for the program without the 64-bit mask
// (tests/solutions/no-wrap.py): it runs that loop on BigInts that are never
// wrapped, and where the loop would never end (every key but 0 from n = 7
// up; see the no-64-bit-wrap diagnosis) it prints what it has and exits
// with 124, as a time limit stops the real program.
import { readFileSync } from 'node:fs';

const mistake = process.argv[2] ?? 'none';
const MASK = (1n << 64n) - 1n;
const out = [];

function jump(key, n) {
  if (mistake === 'js-number') {
    let s = Number(key);
    let b = -1;
    let j = 0;
    while (j < n) {
      b = j;
      s = (s * 2862933555777941757 + 1) % 18446744073709551616;
      j = Math.floor((b + 1) / ((Math.floor(s / 8589934592) + 1) / 2147483648));
    }
    return b;
  }
  if (mistake === 'key-as-double') key = BigInt.asUintN(64, BigInt(Number(key)));
  if (mistake === 'off-by-one') n = n - 1;
  let k = key;
  let b = -1;
  let j = 0;
  while (j < n) {
    b = j;
    k = (k * 2862933555777941757n + 1n) & MASK;
    if (mistake === 'integer-division') {
      j = Number(BigInt(b + 1) * ((1n << 31n) / ((k >> 33n) + 1n)));
    } else {
      j = Math.trunc((b + 1) * (2147483648 / Number((k >> 33n) + 1n)));
    }
  }
  return b;
}

// JumpBackHash* with SplitMix64 (Ertl, Algorithm 6), for the student who
// implemented jumpback where the script asks for jump.
function splitmix(state) {
  state.s = (state.s + 0x9e3779b97f4a7c15n) & MASK;
  let z = state.s;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
  return z ^ (z >> 31n);
}
function jumpback(key, n) {
  if (n <= 1) return 0;
  const state = { s: key };
  const v = splitmix(state);
  const bits = 32 - Math.clz32(n - 1);
  let u = Number((v ^ (v >> 32n)) & 0xffffffffn) & (bits === 32 ? 0xffffffff : (1 << bits) - 1);
  u >>>= 0;
  while (u !== 0) {
    const q = 2 ** (31 - Math.clz32(u));
    let pop = 0;
    for (let x = u; x; x >>>= 1) pop += x & 1;
    const half = pop & 1 ? Number(v >> 32n) : Number(v & 0xffffffffn);
    let b = q + (half & (q - 1));
    for (;;) {
      if (b < n) return b;
      const w = splitmix(state);
      const mask = q * 2 - 1;
      b = Number(w & BigInt(mask));
      if (b < q) break;
      if (b < n) return b;
      b = Number((w >> 32n) & BigInt(mask));
      if (b < q) break;
    }
    u = (u ^ q) >>> 0;
  }
  return 0;
}

// Runs jump's loop without the mask, as Python ints run it, and tells
// whether it never ends. Once j is 0 with the state at 2^64 or more,
// (k >> 33) + 1 exceeds 2^31 and only grows, so every later j is
// floor(1 * 2^31 / ((k >> 33) + 1)) = 0 < n: the loop never ends. It gets
// there by the second step or ends before (the state passes 2^122 there).
function unwrappedNeverEnds(key, n) {
  let k = key;
  let b = -1;
  let j = 0;
  while (j < n) {
    if (b >= 0 && j === 0 && k >= 1n << 64n) return true;
    b = j;
    k = k * 2862933555777941757n + 1n;
    j = Math.trunc((b + 1) * (2147483648 / Number((k >> 33n) + 1n)));
  }
  return false;
}

function bucket(key, n) {
  if (mistake === 'no-wrap' && unwrappedNeverEnds(key, n)) {
    process.stdout.write(out.map((l) => l + '\n').join(''));
    process.exit(124);  // what a timeout reports; the real program never ends
  }
  return mistake === 'jumpback-for-jump' ? jumpback(key, n) : jump(key, n);
}

// A key as the program holds it: its value for the hash and its text.
function parseKey(text) {
  if (mistake !== 'key-as-number') return { value: BigInt(text), text };
  const number = Number(text);
  return { value: BigInt.asUintN(64, BigInt(number)), text: String(number) };
}

const sep = mistake === 'separators' ? ':\t' : ': ';
const arrow = mistake === 'separators' ? '->' : ' -> ';
let keys = [];
for (const raw of readFileSync(0, 'utf8').split('\n')) {
  const words = raw.replace(/#.*/, '').trim().split(/\s+/).filter((w) => w);
  if (words.length === 0) continue;
  const [command, ...args] = words;
  switch (command.toUpperCase()) {
    case 'HASH':
      {
        const key = parseKey(args[0]);
        out.push(`${key.text}${sep}${bucket(key.value, Number(args[1]))}`);
      }
      break;
    case 'KEYS':
      keys = [];
      for (const spec of args) {
        const [first, last] = spec.split('..');
        for (let k = BigInt(first); k <= BigInt(last ?? first); k++) keys.push(parseKey(`${k}`));
      }
      break;
    case 'BUCKETS':
      for (const k of keys) out.push(`${k.text}${sep}${bucket(k.value, Number(args[0]))}`);
      break;
    case 'MOVED': {
      const [from, to] = args.map(Number);
      let moved = 0;
      for (const k of keys) {
        const a = bucket(k.value, from);
        const b = bucket(k.value, to);
        if (a !== b) {
          moved++;
          out.push(`${k.text}${sep}${a}${arrow}${b}`);
        }
      }
      if (mistake === 'estimate') {
        moved = Math.round((keys.length * Math.abs(to - from)) / Math.max(from, to));
      }
      out.push(`moved: ${moved} of ${keys.length}`);
      break;
    }
    case 'TRACE': {
      let previous = -1;
      for (let n = 1; n <= Number(args[1]); n++) {
        const b = bucket(parseKey(args[0]).value, n);
        if (b !== previous) out.push(`${n}${sep}${b}`);
        previous = b;
      }
      break;
    }
    default:
      throw new Error(`unknown command ${command}`);
  }
}
process.stdout.write(out.map((l) => l + '\n').join(''));
