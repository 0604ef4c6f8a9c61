# The Jump Consistent Hash exercise: starter program in Python 3.
#
# Lamping & Veach, "A Fast, Minimal Memory, Consistent Hash Algorithm" (2014):
# implement the hash and three reports built on it. This starter reads the
# commands and parses the keys; you write the part between the BEGIN and END
# lines below.
#
# How it runs: the script comes on standard input. Results go to print(), one
# line each; a line that fails prints `line <N>: error: <message>` to standard
# error and the next lines still run. Standard library only.
#
# Keys are 64-bit unsigned integers (0..18446744073709551615). Python's int
# has no 64-bit limit: it never wraps by itself.

import sys

# ===== BEGIN YOUR CODE =====


def jump_hash(key, buckets):
    """Jump Consistent Hash: the bucket of `key` among `buckets` buckets.

    key: int, 0..2**64-1. buckets: int, 1..2147483647.
    Returns the bucket, an int in 0..buckets-1.

    The paper's loop: start with b = -1 and j = 0; while j < buckets:
        b = j
        key = key * 2862933555777941757 + 1, modulo 2**64
        j = floor((b + 1) * (2**31 / ((key >> 33) + 1))), in double precision
    and return b.

    Hint: x & 0xFFFFFFFFFFFFFFFF is x modulo 2**64; `/` divides in floats.
    """
    raise NotImplementedError(
        "TODO: write jump_hash(key, buckets) in the YOUR CODE region: the bucket "
        "(0..buckets-1) of the 64-bit key, computed with the paper's loop "
        "(see the docstring of jump_hash)")


def report_buckets(keys, buckets):
    """BUCKETS <n>: for each key of `keys`, in order, prints

        <key>: <bucket>

    e.g. `42: 43` for key 42 and n = 100. Print a key as `key.text`.

    `keys` is the key list of the last KEYS command: loop over it with
    `for key in keys`; `key.value` is the int to hash, `key.text` is how the
    key prints; `len(keys)` is how many keys there are.
    buckets: n, 1..2147483647.
    """
    raise NotImplementedError(
        'TODO: write report_buckets(keys, buckets): print "<key>: <bucket>" for each '
        "key (see the docstring of report_buckets)")


def report_moved(keys, from_buckets, to_buckets):
    """MOVED <from> <to>: for each key whose bucket at `from_buckets` differs
    from its bucket at `to_buckets`, in key order, prints

        <key>: <old bucket> -> <new bucket>

    and then one last line with the number of keys that moved and of all keys:

        moved: <count> of <total>

    e.g. `5: 4 -> 10` ... `moved: 4 of 20`.
    from_buckets, to_buckets: 1..2147483647.
    """
    raise NotImplementedError(
        'TODO: write report_moved(keys, from_buckets, to_buckets): print "<key>: <old> '
        '-> <new>" for each key that moves, then "moved: <count> of <total>" '
        "(see the docstring of report_moved)")


def report_load(keys, buckets):
    """LOAD <n>: how many keys land in each bucket. Prints, for every bucket
    0..n-1 in order (also the empty ones),

        <bucket>: <count>

    e.g. `0: 2` `1: 3` ...
    buckets: n, 1..1000000.
    """
    raise NotImplementedError(
        'TODO: write report_load(keys, buckets): print "<bucket>: <count>" for every '
        "bucket 0..buckets-1 (see the docstring of report_load)")


def report_trace(key, max_n):
    """TRACE <key> <max> (a bonus): the key's jump history. Prints

        <n>: <bucket>

    for every n in 1..max_n at which the key's bucket changes, in increasing n
    (the first line is always `1: 0`). key: a key with .value and .text.
    max_n: 1..2147483647.

    Hint: max_n can be 2147483647, too many n to try one by one. Jump hash
    only ever moves a key to the new bucket, so its bucket changes at
    n = b + 1 for each bucket b it passes through, and the bucket it had just
    before b is jump_hash(key.value, b).
    """
    raise NotImplementedError(
        'TODO: write report_trace(key, max_n) (a bonus): print "<n>: <bucket>" for '
        "every n in 1..max_n where the bucket changes (see the docstring of report_trace)")


# ===== END YOUR CODE =====

# ---------------------------------------------------------------------------
# Everything below reads the script. You do not need to change it.

MAX_BUCKETS = 2147483647  # 2^31 - 1, as the paper's int32_t n
MAX_LOAD_BUCKETS = 1000000  # LOAD keeps one counter per bucket
MAX_KEYS = 1000000000  # the most keys one KEYS command may hold
MASK64 = 0xFFFFFFFFFFFFFFFF

KEY_FORMS = ('a key is a decimal integer 0..18446744073709551615, 0x followed by '
             '1 to 16 hex digits, or a "quoted string"')
EXERCISE_COMMANDS = ('ALGO jump, HASH <key> <n>, KEYS <spec>..., BUCKETS <n>, '
                     'MOVED <from> <to>, LOAD <n>, TRACE <key> <max>')


class InputError(Exception):
    """A mistake in the script: its message says what is wrong and what is allowed."""


# ----- Showing user input in messages -----

def shown(text):
    """`text` as an error message shows it: control characters as \\u{1b},
    bytes that are not UTF-8 as \\xff, at most 80 characters."""
    out = []
    for count, character in enumerate(text):
        if count == 80:
            size = len(text.encode('utf-8', 'surrogateescape'))
            return ''.join(out) + '... (%d bytes)' % size
        code = ord(character)
        if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8 (see read_script)
            out.append('\\x%02x' % (code - 0xDC00))
        elif (code < 0x20 or 0x7F <= code < 0xA0 or 0x202A <= code <= 0x202E
              or 0x2066 <= code <= 0x2069 or 0xD800 <= code <= 0xDFFF):
            out.append('\\u{%x}' % code)
        else:
            out.append(character)
    return ''.join(out)


def quoted(text):
    return "'" + shown(text) + "'"


# ----- XXH3-64 (seed 0): the key of a "quoted string" -----
# Yann Collet's XXH3 (xxHash 0.8), 64-bit output, seed 0, default secret,
# for every length class. Arithmetic is modulo 2^64.

XXH_SECRET = bytes.fromhex(
    'b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671f'
    'cb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c'
    '3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8'
    'a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364'
    'eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e'
    '2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e')
PRIME32_1 = 0x9E3779B1
PRIME32_2 = 0x85EBCA77
PRIME32_3 = 0xC2B2AE3D
PRIME64_1 = 0x9E3779B185EBCA87
PRIME64_2 = 0xC2B2AE3D27D4EB4F
PRIME64_3 = 0x165667B19E3779F9
PRIME64_4 = 0x85EBCA77C2B2AE63
PRIME64_5 = 0x27D4EB2F165667C5


def read32(data, at):
    return int.from_bytes(data[at:at + 4], 'little')


def read64(data, at):
    return int.from_bytes(data[at:at + 8], 'little')


def rotl64(x, bits):
    return ((x << bits) | (x >> (64 - bits))) & MASK64


def mul128_fold64(a, b):
    """The 128-bit product of a and b, its two halves XORed together."""
    product = a * b
    return (product & MASK64) ^ (product >> 64)


def xxh64_avalanche(h):
    h ^= h >> 33
    h = (h * PRIME64_2) & MASK64
    h ^= h >> 29
    h = (h * PRIME64_3) & MASK64
    return h ^ (h >> 32)


def xxh3_avalanche(h):
    h ^= h >> 37
    h = (h * 0x165667919E3779F9) & MASK64
    return h ^ (h >> 32)


def rrmxmx(h, length):
    h ^= rotl64(h, 49) ^ rotl64(h, 24)
    h = (h * 0x9FB21C651E98DF25) & MASK64
    h ^= (h >> 35) + length
    h = (h * 0x9FB21C651E98DF25) & MASK64
    return h ^ (h >> 28)


def mix16(data, at, secret_at):
    """16 input bytes at `at` mixed with 16 secret bytes at `secret_at`."""
    return mul128_fold64(read64(data, at) ^ read64(XXH_SECRET, secret_at),
                         read64(data, at + 8) ^ read64(XXH_SECRET, secret_at + 8))


def accumulate_stripe(acc, data, at, secret_at):
    """One 64-byte stripe at `at` into the 8 accumulators."""
    for i in range(8):
        value = read64(data, at + 8 * i)
        keyed = value ^ read64(XXH_SECRET, secret_at + 8 * i)
        acc[i ^ 1] = (acc[i ^ 1] + value) & MASK64
        acc[i] = (acc[i] + (keyed & 0xFFFFFFFF) * (keyed >> 32)) & MASK64


def scramble(acc):
    for i in range(8):
        a = acc[i]
        a ^= a >> 47
        a ^= read64(XXH_SECRET, 128 + 8 * i)
        acc[i] = (a * PRIME32_1) & MASK64


def xxh3_long(data):
    """Inputs of more than 240 bytes: stripes of 64 bytes, blocks of 16 stripes."""
    length = len(data)
    acc = [PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME32_2, PRIME64_5, PRIME32_1]
    block_length = 1024
    blocks = (length - 1) // block_length
    for block in range(blocks):
        for stripe in range(16):
            accumulate_stripe(acc, data, block * block_length + 64 * stripe, 8 * stripe)
        scramble(acc)
    stripes = (length - 1 - blocks * block_length) // 64
    for stripe in range(stripes):
        accumulate_stripe(acc, data, blocks * block_length + 64 * stripe, 8 * stripe)
    accumulate_stripe(acc, data, length - 64, 192 - 64 - 7)  # the last stripe
    result = (length * PRIME64_1) & MASK64
    for i in range(4):
        result += mul128_fold64(acc[2 * i] ^ read64(XXH_SECRET, 11 + 16 * i),
                                acc[2 * i + 1] ^ read64(XXH_SECRET, 19 + 16 * i))
    return xxh3_avalanche(result & MASK64)


def xxh3(data):
    """XXH3-64 with seed 0 of `data` (bytes)."""
    length = len(data)
    if length == 0:
        return xxh64_avalanche(read64(XXH_SECRET, 56) ^ read64(XXH_SECRET, 64))
    if length <= 3:
        combined = (data[0] << 16) | (data[length >> 1] << 24) | data[length - 1] | (length << 8)
        return xxh64_avalanche(combined ^ (read32(XXH_SECRET, 0) ^ read32(XXH_SECRET, 4)))
    if length <= 8:
        combined = read32(data, length - 4) + (read32(data, 0) << 32)
        return rrmxmx(combined ^ (read64(XXH_SECRET, 8) ^ read64(XXH_SECRET, 16)), length)
    if length <= 16:
        low = read64(data, 0) ^ (read64(XXH_SECRET, 24) ^ read64(XXH_SECRET, 32))
        high = read64(data, length - 8) ^ (read64(XXH_SECRET, 40) ^ read64(XXH_SECRET, 48))
        low_swapped = int.from_bytes(low.to_bytes(8, 'little'), 'big')
        return xxh3_avalanche((length + low_swapped + high + mul128_fold64(low, high)) & MASK64)
    if length <= 128:
        acc = length * PRIME64_1
        if length > 32:
            if length > 64:
                if length > 96:
                    acc += mix16(data, 48, 96) + mix16(data, length - 64, 112)
                acc += mix16(data, 32, 64) + mix16(data, length - 48, 80)
            acc += mix16(data, 16, 32) + mix16(data, length - 32, 48)
        acc += mix16(data, 0, 0) + mix16(data, length - 16, 16)
        return xxh3_avalanche(acc & MASK64)
    if length <= 240:
        acc = length * PRIME64_1
        for i in range(8):
            acc += mix16(data, 16 * i, 16 * i)
        acc = xxh3_avalanche(acc & MASK64)
        for i in range(8, length // 16):
            acc += mix16(data, 16 * i, 16 * (i - 8) + 3)
        acc += mix16(data, length - 16, 136 - 17)
        return xxh3_avalanche(acc & MASK64)
    return xxh3_long(data)


# ----- SplitMix64: the keys of random:COUNT:SEED -----
# Steele, Lea & Flood, "Fast splittable pseudorandom number generators" (2014).

SPLITMIX64_GAMMA = 0x9E3779B97F4A7C15


def splitmix64_mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


# ----- Keys and key lists -----

class Key:
    """A key: `value` (int, 0..2**64-1) is what you hash, `text` is how it prints."""

    def __init__(self, value, text):
        self.value = value
        self.text = text

    def __repr__(self):
        return 'Key(%d, %r)' % (self.value, self.text)


HEX_DIGITS = set('0123456789abcdefABCDEF')
DECIMAL_DIGITS = set('0123456789')


def is_decimal(token):
    return token != '' and set(token) <= DECIMAL_DIGITS


def parse_number(token):
    """A decimal (0..2**64-1) or 0x hex (1 to 16 digits) key, as an int."""
    if token[:2] in ('0x', '0X'):
        digits = token[2:]
        if digits == '' or not set(digits) <= HEX_DIGITS:
            raise InputError('%s is not a key (%s)' % (quoted(token), KEY_FORMS))
        if len(digits) > 16:
            raise InputError('%s has more than 16 hex digits (keys are 64-bit: at most '
                             '0xFFFFFFFFFFFFFFFF)' % quoted(token))
        return int(digits, 16)
    if not is_decimal(token):
        raise InputError('%s is not a key (%s)' % (quoted(token), KEY_FORMS))
    value = int(token)
    if value > MASK64:
        raise InputError('%s is out of range (keys are 0..18446744073709551615)' % quoted(token))
    return value


def closing_quote(token):
    """Index of the quote that closes the string starting `token`."""
    i = 1
    while i < len(token):
        if token[i] == '\\':
            i += 1
        elif token[i] == '"':
            return i
        i += 1
    return len(token) - 1


def parse_string_key(token):
    """A "quoted string" key: its value is XXH3-64 of its UTF-8 bytes; it prints
    as written. `token` comes from split_words, which found its closing quote."""
    text = []
    i = 1
    while i < len(token) - 1:
        if token[i] == '\\':
            following = token[i + 1]
            if following not in ('"', '\\'):
                raise InputError("unknown escape '\\%s' in string key %s (allowed: \\\" and \\\\)"
                                 % (shown(following), shown(token)))
            text.append(following)
            i += 2
        else:
            text.append(token[i])
            i += 1
    try:
        data = ''.join(text).encode('utf-8')
    except UnicodeEncodeError:
        raise InputError('string key %s is not valid UTF-8' % shown(token)) from None
    return Key(xxh3(data), token)


def parse_key(token):
    """One key token: decimal, 0x hex or a "quoted string"."""
    if token.startswith('"'):
        end = closing_quote(token)
        if end != len(token) - 1:
            raise InputError('unexpected text after the closing quote of %s (separate arguments '
                             'with a space)' % shown(token[:end + 1]))
        return parse_string_key(token)
    value = parse_number(token)
    return Key(value, str(value))


def parse_count(token, what, least, most):
    """A plain decimal integer in least..most, such as a bucket count."""
    if not is_decimal(token) or not least <= int(token) <= most:
        raise InputError('%s must be an integer in %d..%d (got %s)'
                         % (what, least, most, quoted(token)))
    return int(token)


def range_keys(first, last):
    for value in range(first, last + 1):
        yield Key(value, str(value))


def random_keys(seed, count):
    state = seed
    for _ in range(count):
        state = (state + SPLITMIX64_GAMMA) & MASK64
        value = splitmix64_mix(state)
        yield Key(value, str(value))


class KeyList:
    """The keys of a KEYS command, made one at a time as a report asks for
    them (KEYS 0..999999999 takes no memory). Loop with `for key in keys`."""

    def __init__(self, parts, count):
        self.parts = parts  # functions that each return an iterator of keys
        self.count = count  # how many keys in all

    def __iter__(self):
        for part in self.parts:
            yield from part()

    def __len__(self):
        return self.count


def too_many_keys(spec):
    return InputError('too many keys: %s brings the set above %d keys (the most one key set '
                      'may hold)' % (quoted(spec), MAX_KEYS))


def parse_key_list(specs):
    """The arguments of KEYS: keys, ranges A..B and random:COUNT:SEED."""
    parts = []
    count = 0
    for spec in specs:
        dots = spec.find('..')
        if spec.startswith('"'):
            key = parse_key(spec)
            parts.append(lambda key=key: iter([key]))
            size = 1
        elif len(spec) > 7 and spec.startswith('random:'):
            rest = spec[7:]
            colon = rest.find(':')
            if colon < 0:
                raise InputError('%s is not a random key set (write random:COUNT:SEED, e.g. '
                                 'random:1000:42)' % quoted(spec))
            size = parse_count(rest[:colon], 'random key count', 0, MAX_KEYS)
            try:
                seed = parse_number(rest[colon + 1:])
            except InputError as error:
                raise InputError('random key seed: %s' % error) from None
            parts.append(lambda seed=seed, size=size: random_keys(seed, size))
        elif dots >= 0:
            try:
                first = parse_number(spec[:dots])
                last = parse_number(spec[dots + 2:])
            except InputError as error:
                raise InputError('range %s: %s' % (quoted(spec), error)) from None
            if first > last:
                raise InputError('range %s is empty: its first key must be at most its last'
                                 % quoted(spec))
            if last - first >= MAX_KEYS:
                raise too_many_keys(spec)
            size = last - first + 1
            parts.append(lambda first=first, last=last: range_keys(first, last))
        else:
            try:
                key = parse_key(spec)
            except InputError as error:
                raise InputError('%s; KEYS also takes ranges A..B and random:COUNT:SEED'
                                 % error) from None
            parts.append(lambda key=key: iter([key]))
            size = 1
        if count + size > MAX_KEYS:
            raise too_many_keys(spec)
        count += size
    return KeyList(parts, count)


# ----- Splitting a line into words -----

def is_space(character):
    return character in (' ', '\t', '\r')


def split_words(line):
    """The words of one line, split at spaces and tabs. A "quoted string" is
    one word even with spaces or # inside; # outside quotes starts a comment."""
    words = []
    i = 0
    while i < len(line):
        if is_space(line[i]):
            i += 1
            continue
        if line[i] == '#':
            break
        start = i
        # A node edit may put + or - before a quoted name: -"cache 3".
        signed_quote = line[i] in '+-' and line[i + 1:i + 2] == '"'
        if line[i] == '"' or signed_quote:
            i += 2 if signed_quote else 1
            closed = False
            while i < len(line):
                if line[i] == '\\' and i + 1 < len(line):
                    i += 2
                elif line[i] == '"':
                    i += 1
                    closed = True
                    break
                else:
                    i += 1
            if not closed:
                raise InputError('string %s has no closing quote' % shown(line[start:]))
            # A quoted node name may carry a weight: "cache 3"*2.
            if i < len(line) and line[i] == '*':
                while i < len(line) and not is_space(line[i]) and line[i] not in '#"':
                    i += 1
            if i < len(line) and not is_space(line[i]) and line[i] != '#':
                raise InputError('unexpected text after the closing quote of %s (separate '
                                 'arguments with a space)' % shown(line[start:i]))
        else:
            while i < len(line) and not is_space(line[i]) and line[i] != '#':
                if line[i] == '"':
                    raise InputError("'\"' inside %s (a string key starts with '\"' and stands "
                                     "alone)" % quoted(line[start:i + 1]))
                i += 1
        words.append(line[start:i])
    return words


# ----- The commands -----

current_keys = KeyList([], 0)  # the key list of the last KEYS command


def not_in_exercise(what, instead):
    """An error for a command of the full language that this exercise leaves out."""
    return InputError('%s, which is not part of this exercise (%s)' % (what, instead))


def arity_error(command, usage, got):
    return InputError('%s takes %s, got %d' % (command, usage, got))


def run_command(words):
    global current_keys
    command = words[0].upper()
    args = words[1:]
    if command == 'ALGO':
        if not args:
            raise InputError('ALGO takes a name (ALGO jump), got nothing')
        if args[0].lower() != 'jump':
            raise InputError('algorithm %s is not part of this exercise, which computes jump only '
                             '(write ALGO jump, or leave ALGO out)' % quoted(args[0]))
        if len(args) > 1:
            raise InputError('unknown option %s for jump (jump takes no options)' % quoted(args[1]))
    elif command == 'HASH':
        if len(args) == 1:
            raise not_in_exercise('HASH <key> without n places the key on a node list',
                                  'write HASH <key> <n>')
        if len(args) != 2:
            raise arity_error('HASH', '2 arguments (HASH <key> <n>)', len(args))
        key = parse_key(args[0])
        buckets = parse_count(args[1], 'bucket count', 1, MAX_BUCKETS)
        bucket = jump_hash(key.value, buckets)
        if type(bucket) is not int or not 0 <= bucket < buckets:
            raise InputError('jump_hash(%d, %d) returned %s (%s); it must return an int in 0..%d'
                             % (key.value, buckets, shown(repr(bucket)), type(bucket).__name__,
                                buckets - 1))
        print('%s: %d' % (key.text, bucket))
    elif command == 'KEYS':
        current_keys = parse_key_list(args)  # a failing KEYS leaves the keys as they were
    elif command == 'BUCKETS':
        if not args:
            raise not_in_exercise('BUCKETS without n places keys on a node list',
                                  'write BUCKETS <n>')
        if len(args) != 1:
            raise arity_error('BUCKETS', '1 argument (BUCKETS <n>)', len(args))
        report_buckets(current_keys, parse_count(args[0], 'bucket count', 1, MAX_BUCKETS))
    elif command == 'MOVED':
        if args and args[0][:1] in ('-', '+', '='):
            raise not_in_exercise('MOVED %s edits a node list (-name, +name, =name*weight)'
                                  % shown(args[0]), 'write MOVED <from> <to>')
        if len(args) != 2:
            raise arity_error('MOVED', '2 arguments (MOVED <from> <to>)', len(args))
        from_buckets = parse_count(args[0], 'from bucket count', 1, MAX_BUCKETS)
        to_buckets = parse_count(args[1], 'to bucket count', 1, MAX_BUCKETS)
        report_moved(current_keys, from_buckets, to_buckets)
    elif command == 'LOAD':
        if not args:
            raise not_in_exercise('LOAD without n counts keys on a node list', 'write LOAD <n>')
        if len(args) != 1:
            raise arity_error('LOAD', '1 argument (LOAD <n>)', len(args))
        report_load(current_keys, parse_count(args[0], 'LOAD bucket count', 1, MAX_LOAD_BUCKETS))
    elif command == 'TRACE':
        if len(args) != 2:
            raise arity_error('TRACE', '2 arguments (TRACE <key> <max>)', len(args))
        key = parse_key(args[0])
        report_trace(key, parse_count(args[1], 'TRACE max', 1, MAX_BUCKETS))
    elif command in ('NODES', 'REMOVE', 'ADD'):
        raise not_in_exercise('%s works on a node list' % command,
                              'the commands here: ' + EXERCISE_COMMANDS)
    else:
        raise InputError('unknown command %s (known: ALGO, HASH, KEYS, BUCKETS, MOVED, LOAD, '
                         'TRACE)' % quoted(words[0]))


def describe_error(error):
    """The message of an error: a script mistake or a TODO as it is, any other error with its kind."""
    if isinstance(error, (InputError, NotImplementedError)):
        return str(error)
    return '%s: %s' % (type(error).__name__, error)


def run_line(line, line_number):
    """Runs one line; an error prints as `line <N>: error: <message>` and the run goes on."""
    try:
        words = split_words(line)
        if words:
            run_command(words)
    except Exception as error:  # any error of one line, also one in your code
        sys.stdout.flush()  # keep printed lines before the error message
        print('line %d: error: %s' % (line_number, describe_error(error)), file=sys.stderr)


def read_script():
    """Standard input as text; bytes that are not UTF-8 are kept (and reported
    if a string key holds them) instead of stopping the program."""
    try:
        return sys.stdin.buffer.read().decode('utf-8', 'surrogateescape')
    except AttributeError:  # a standard input without bytes
        return sys.stdin.read()


def run_script(script):
    lines = script.split('\n')
    if lines[-1] == '':
        lines.pop()  # a final newline ends the last line
    for number, line in enumerate(lines, start=1):
        run_line(line, number)


run_script(read_script())
