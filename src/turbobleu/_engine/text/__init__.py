"""Stage 1: text -> token ids (sacrebleu's tokenizers, compiled and twin)."""
