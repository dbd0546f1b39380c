//! Double-mapped ("mirrored") memory: one `memfd` mapped twice, back to back.
//!
//! This module owns the only `mmap` calls of the runtime. A region of `len`
//! bytes is visible at `base` and again at `base + len`, so any window of at
//! most `len` bytes that starts inside the first copy is contiguous in virtual
//! memory. The ring buffer built on top never has to split a slice at the
//! wrap-around point. This module knows nothing about items, positions or
//! readers.

use std::io;
use std::ptr::NonNull;

/// A `len`-byte memory region mapped twice in a row.
pub struct MirroredMemory {
    base: NonNull<u8>,
    len: usize,
}

// SAFETY: the mapping is plain shared memory owned by this value; access to it
// is synchronised by the ring buffer that owns it, not by this type.
unsafe impl Send for MirroredMemory {}
// SAFETY: as above; `&MirroredMemory` only hands out raw pointers.
unsafe impl Sync for MirroredMemory {}

/// The system page size in bytes.
pub fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if size > 0 { size as usize } else { 4096 }
}

impl MirroredMemory {
    /// Maps a region of `len` bytes twice. `len` must be a positive multiple
    /// of the page size.
    pub fn new(len: usize) -> io::Result<Self> {
        if len == 0 || !len.is_multiple_of(page_size()) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "mirrored buffer length {len} is not a positive multiple of the page size {}",
                    page_size()
                ),
            ));
        }
        let double = len.checked_mul(2).ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "buffer length overflows")
        })?;
        // SAFETY: the name is a valid NUL-terminated string; flags are valid.
        let fd = unsafe { libc::memfd_create(c"rfgraph-ring".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        let result = Self::map_twice(fd, len, double);
        // SAFETY: fd is a descriptor we own; the mappings keep the memory alive.
        unsafe { libc::close(fd) };
        result
    }

    fn map_twice(fd: libc::c_int, len: usize, double: usize) -> io::Result<Self> {
        // SAFETY: fd is a valid memfd we own.
        if unsafe { libc::ftruncate(fd, len as libc::off_t) } != 0 {
            return Err(io::Error::last_os_error());
        }
        // Reserve 2 * len of address space so both halves land next to each other.
        // SAFETY: anonymous PROT_NONE reservation, no aliasing with Rust objects.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                double,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        for half in 0..2 {
            // SAFETY: `base + half * len` lies inside the reservation made above,
            // which we own; MAP_FIXED replaces only our own reservation.
            let addr = unsafe {
                libc::mmap(
                    base.cast::<u8>().add(half * len).cast(),
                    len,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_SHARED | libc::MAP_FIXED,
                    fd,
                    0,
                )
            };
            if addr == libc::MAP_FAILED {
                let err = io::Error::last_os_error();
                // SAFETY: unmapping our own reservation.
                unsafe { libc::munmap(base, double) };
                return Err(err);
            }
        }
        Ok(Self {
            base: NonNull::new(base.cast()).expect("mmap returned a null mapping"),
            len,
        })
    }

    /// Length of one copy in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: a mirrored region has a positive length.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Start of the first copy. Valid for `2 * len()` bytes.
    pub fn as_ptr(&self) -> *mut u8 {
        self.base.as_ptr()
    }
}

impl Drop for MirroredMemory {
    fn drop(&mut self) {
        // SAFETY: base/len describe exactly the two mappings we created.
        unsafe { libc::munmap(self.base.as_ptr().cast(), self.len * 2) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_halves_alias_the_same_bytes() {
        let len = page_size() * 2;
        let mem = MirroredMemory::new(len).unwrap();
        let p = mem.as_ptr();
        // SAFETY: indices are inside the 2 * len mapping.
        unsafe {
            *p.add(5) = 42;
            assert_eq!(*p.add(len + 5), 42);
            *p.add(len + len - 1) = 7;
            assert_eq!(*p.add(len - 1), 7);
            // A write straddling the wrap point is visible contiguously.
            let slice = std::slice::from_raw_parts_mut(p.add(len - 2), 4);
            slice.copy_from_slice(&[1, 2, 3, 4]);
            assert_eq!(*p.add(0), 3);
            assert_eq!(*p.add(1), 4);
        }
    }

    #[test]
    fn memory_starts_zeroed() {
        let mem = MirroredMemory::new(page_size()).unwrap();
        // SAFETY: inside the mapping.
        let s = unsafe { std::slice::from_raw_parts(mem.as_ptr(), 2 * page_size()) };
        assert!(s.iter().all(|&b| b == 0));
    }

    #[test]
    fn rejects_unaligned_length() {
        assert!(MirroredMemory::new(100).is_err());
        assert!(MirroredMemory::new(0).is_err());
    }
}
