"""Helpers shared by the trainer tests of the reward adapters (tests/test_rewards_*.py)."""

from __future__ import annotations

from typing import Any, List


def word_tokenizer(texts: List[str]) -> Any:
    """A word-level ``PreTrainedTokenizerFast`` trained on ``texts`` (no downloads): decoding
    joins words with spaces, so decoded completions are text that BLEU can score."""
    import tokenizers
    import transformers

    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel(unk_token="<unk>"))
    tok.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    tok.decoder = tokenizers.decoders.WordPiece(prefix="##")  # joins words with spaces
    trainer = tokenizers.trainers.WordLevelTrainer(
        vocab_size=2000, special_tokens=["<pad>", "<unk>", "<s>", "</s>"]
    )
    tok.train_from_iterator(texts, trainer)
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token="<s>",
        eos_token="</s>",
        pad_token="<pad>",
        unk_token="<unk>",
    )


def tiny_llama(tokenizer: Any, seed: int = 0) -> Any:
    """A randomly initialised two-layer Llama (``torch.manual_seed(seed)`` first) sized for
    ``tokenizer``: a causal LM that trainers can run for a step or two on the CPU."""
    import torch
    import transformers

    torch.manual_seed(seed)
    config = transformers.LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=128,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    return transformers.LlamaForCausalLM(config)
