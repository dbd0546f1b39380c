//! `std::sort` as GCC's libstdc++ implements it (introsort: median of
//! three, unguarded partition, heap sort past the depth limit, a final
//! insertion sort). GNU Radio's list decoder sorts its paths with it, and
//! paths of equal metric end where this algorithm puts them, so the same
//! order needs the same algorithm.

const THRESHOLD: usize = 16;

/// Sorts `v` as libstdc++'s `std::sort(v.begin(), v.end(), less)`.
pub(crate) fn std_sort<T: Copy>(v: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    if v.len() > 1 {
        let depth = 2 * (usize::BITS - 1 - v.len().leading_zeros()) as usize;
        introsort_loop(v, depth, less);
        insertion_sort(v, less);
    }
}

fn introsort_loop<T: Copy>(v: &mut [T], mut depth: usize, less: &impl Fn(&T, &T) -> bool) {
    let mut last = v.len();
    while last > THRESHOLD {
        if depth == 0 {
            heap_sort(&mut v[..last], less);
            return;
        }
        depth -= 1;
        let cut = partition_pivot(&mut v[..last], less);
        introsort_loop(&mut v[cut..last], depth, less);
        last = cut;
    }
}

/// `__move_median_to_first` then `__unguarded_partition`.
fn partition_pivot<T: Copy>(v: &mut [T], less: &impl Fn(&T, &T) -> bool) -> usize {
    let len = v.len();
    let (a, b, c) = (1, len / 2, len - 1);
    let m = if less(&v[a], &v[b]) {
        if less(&v[b], &v[c]) {
            b
        } else if less(&v[a], &v[c]) {
            c
        } else {
            a
        }
    } else if less(&v[a], &v[c]) {
        a
    } else if less(&v[b], &v[c]) {
        c
    } else {
        b
    };
    v.swap(0, m);
    let (mut first, mut last) = (1, len);
    loop {
        while less(&v[first], &v[0]) {
            first += 1;
        }
        last -= 1;
        while less(&v[0], &v[last]) {
            last -= 1;
        }
        if first >= last {
            return first;
        }
        v.swap(first, last);
        first += 1;
    }
}

/// Insertion sort with a strict comparison (stable), which is what
/// `__final_insertion_sort` amounts to.
fn insertion_sort<T: Copy>(v: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    for i in 1..v.len() {
        let val = v[i];
        let mut j = i;
        while j > 0 && less(&val, &v[j - 1]) {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = val;
    }
}

/// `__partial_sort(first, last, last)`: `make_heap` then `sort_heap`.
fn heap_sort<T: Copy>(v: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    let len = v.len();
    if len >= 2 {
        let mut parent = (len - 2) / 2;
        loop {
            let value = v[parent];
            adjust_heap(v, parent, len, value, less);
            if parent == 0 {
                break;
            }
            parent -= 1;
        }
    }
    let mut last = len;
    while last > 1 {
        last -= 1;
        let value = v[last];
        v[last] = v[0];
        adjust_heap(&mut v[..last], 0, last, value, less);
    }
}

fn adjust_heap<T: Copy>(
    v: &mut [T],
    mut hole: usize,
    len: usize,
    value: T,
    less: &impl Fn(&T, &T) -> bool,
) {
    let top = hole;
    let mut second = hole;
    while second < len.saturating_sub(1) / 2 {
        second = 2 * (second + 1);
        if less(&v[second], &v[second - 1]) {
            second -= 1;
        }
        v[hole] = v[second];
        hole = second;
    }
    if len & 1 == 0 && len >= 2 && second == (len - 2) / 2 {
        second = 2 * (second + 1);
        v[hole] = v[second - 1];
        hole = second - 1;
    }
    // __push_heap
    let mut parent = hole.saturating_sub(1) / 2;
    while hole > top && less(&v[parent], &value) {
        v[hole] = v[parent];
        hole = parent;
        parent = hole.saturating_sub(1) / 2;
    }
    v[hole] = value;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_a_sort() {
        let mut seed = 7u64;
        for len in [0usize, 1, 2, 5, 16, 17, 32, 100, 1000] {
            let mut v: Vec<(u32, usize)> = (0..len)
                .map(|i| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (((seed >> 33) % 10) as u32, i)
                })
                .collect();
            std_sort(&mut v, &|a, b| a.0 < b.0);
            assert!(v.windows(2).all(|w| w[0].0 <= w[1].0));
            // Heap sort alone sorts too.
            let mut h: Vec<u32> = v.iter().rev().map(|x| x.0 * 7 % 11).collect();
            heap_sort(&mut h, &|a, b| a < b);
            assert!(h.windows(2).all(|w| w[0] <= w[1]), "{len}");
        }
    }
}
