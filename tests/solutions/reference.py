# The exercise's reference solution in Python: the YOUR CODE region of
# web/src/workspace/starters/starter.py, correct. Lives only in the tests.


def jump_hash(key, buckets):
    """Jump Consistent Hash (Lamping & Veach, fig. 1): the bucket of a 64-bit
    key among `buckets` buckets, 1..2147483647. The state is masked to 64 bits
    after every step; 2**31 / ((key >> 33) + 1) divides two ints below 2**53,
    so it is the same correctly rounded double as the paper's C."""
    b, j = -1, 0
    while j < buckets:
        b = j
        key = (key * 2862933555777941757 + 1) & 0xFFFFFFFFFFFFFFFF
        j = int((b + 1) * ((1 << 31) / ((key >> 33) + 1)))
    return b


def report_buckets(keys, buckets):
    """BUCKETS <n>: "<key>: <bucket>" for each key."""
    for key in keys:
        print('%s: %d' % (key.text, jump_hash(key.value, buckets)))


def report_moved(keys, from_buckets, to_buckets):
    """MOVED <from> <to>: "<key>: <old> -> <new>" for each moved key, then "moved: <count> of <total>"."""
    moved = 0
    for key in keys:
        before = jump_hash(key.value, from_buckets)
        after = jump_hash(key.value, to_buckets)
        if before != after:
            moved += 1
            print('%s: %d -> %d' % (key.text, before, after))
    print('moved: %d of %d' % (moved, len(keys)))


def report_load(keys, buckets):
    """LOAD <n>: "<bucket>: <count>" for every bucket 0..n-1."""
    counts = [0] * buckets
    for key in keys:
        counts[jump_hash(key.value, buckets)] += 1
    for bucket, count in enumerate(counts):
        print('%d: %d' % (bucket, count))


def report_trace(key, max_n):
    """TRACE <key> <max>: "<n>: <bucket>" where the bucket changes, n in 1..max.
    The bucket changes at n = b + 1 for each bucket b the key passes through;
    walking down from the bucket at max_n, the one before b is jump_hash(key, b)."""
    bucket = jump_hash(key.value, max_n)
    steps = [bucket]
    while bucket > 0:
        bucket = jump_hash(key.value, bucket)
        steps.append(bucket)
    for b in reversed(steps):
        print('%d: %d' % (b + 1, b))
