# A wrong solution for the tests: the paper's formula in Python without the
# 64-bit mask. Python ints never overflow, so the state grows without bound.
# For any key from 1 up, the first step makes the state at least
# 2862933555777941758 (about 2^61.3), so the factor 2**31 / ((key >> 33) + 1)
# is below 7 and j <= 6. Unless n <= 6, the second step makes it above
# 2^122, the factor falls below 2^-58, j = 0 < n, and as the state only
# grows, j stays 0: the loop never ends. 2**31 / <huge int> underflows to 0.0
# rather than raising OverflowError, so the program hangs instead of failing.
# It ends only when the first step already reaches n: for key 0 (bucket 0,
# right for every n) and for a few small keys when n <= 6.


def jump_hash(key, buckets):
    """Jump hash without `& 0xFFFFFFFFFFFFFFFF`: returns only when the first step reaches buckets."""
    b, j = -1, 0
    while j < buckets:
        b = j
        key = key * 2862933555777941757 + 1
        j = int((b + 1) * (2**31 / ((key >> 33) + 1)))
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
