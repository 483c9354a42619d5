"""``sacrebleu.tokenizers``: the tokenizer modules that code imports by path (TER's)."""
