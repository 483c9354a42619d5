"""N-gram counting and clipping over id spans -> int64 statistics rows (compiled and twin)."""
