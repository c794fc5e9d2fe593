"""Golden token ids for pkg/bpe's tests, from Hugging Face's own tokenizers
library: SmolLM2's byte-level BPE built from the vocabulary and merges in the
GGUF file (read with the GGML project's gguf package), with SmolLM2's
pre-tokenizer as its tokenizer.json on the Hugging Face hub declares it:

    Sequence([Digits(individual_digits=True),
              ByteLevel(add_prefix_space=False, use_regex=True)])

llama.cpp agrees (src/llama-vocab.cpp: LLAMA_VOCAB_PRE_TYPE_SMOLLM splits
"\\p{N}" first, then GPT-2's regex). The control tokens (token_type 3, ids
0-16: <|endoftext|>, <|im_start|>, <|im_end|>, ...) are added special tokens,
matched in the text before pre-tokenization, as in tokenizer.json.

transformers' own GGUF conversion (AutoTokenizer.from_pretrained with
gguf_file=) leaves out the Digits step; the cases in "transformers_gguf"
record where that changes the ids, as a warning to anyone who uses it.

Usage: python golden_tokens.py MODEL.gguf CORPUS OUT.json
  CORPUS: pkg/lab/corpus/go-docs.txt (the lab's committed text), of which
  windows are tokenized by reference (path and byte range), not copied.
"""

import importlib.metadata
import json
import random
import sys

from gguf import GGUFReader
from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

# Byte ranges of the corpus, at line starts, tokenized whole.
WINDOWS = [(0, 40000), (150000, 190000), (260000, 300000)]

# Written for this file: prose in several scripts, numbers in many forms,
# whitespace runs, contractions, code, emoji (with ZWJ sequences, skin
# tones and flags), combining marks, the chat template's special tokens.
CASES = [
    "",
    " ",
    "Hello world",
    " Hello world",
    "Hello world 12345",
    "x  1",
    "x   1 2  3\t4\n5",
    "3.14159, 2,718 and 1e-9; -42; +7; 0x1F; 1_000_000",
    "In 2024, 37.5% of 1,000 people paid $19.99 (≈€18.40).",
    "Arabic-Indic ٣٤٥, Devanagari ४२, fractions ½ ¾, Roman Ⅻ, superscript x² and circled ①.",
    "  leading spaces",
    "trailing spaces   ",
    "tabs\tand\t\ttabs",
    "lines\n\nand\r\nwindows\r\n\r\nlines\n",
    "   \n   \n",
    "no-break\u00a0space, thin\u2009space, ideographic\u3000space, em\u2003space",
    "zero\u200bwidth and\u200djoiner and soft\u00adhyphen",
    "It's, it'S, they're, we've, I'm, you'll, he'd, don't, rock 'n' roll",
    "curly apostrophes: it\u2019s, they\u2019re",
    "''' quotes \"\"\" and ``` fences",
    "func main() {\n\tfmt.Println(\"hi\") // comment\n\tfor i := 0; i < 10; i++ {\n\t\tx[i] += y[i]*2\n\t}\n}\n",
    "def f(x):\n    return x ** 2  # square\n",
    "https://example.com/path?q=1&r=two#frag and user@example.org",
    "Café, naïve, façade, Ångström, Øresund, Straße, İstanbul, ı.",
    "e\u0301 (e plus combining acute) vs \u00e9, and a\u0308\u0301 stacked",
    "Le renard brun rapide saute par-dessus le chien paresseux.",
    "Der schnelle braune Fuchs springt über den faulen Hund.",
    "El veloz murciélago hindú comía feliz cardillo y kiwi.",
    "Съешь же ещё этих мягких французских булок, да выпей чаю.",
    "Ταχίστη αλώπηξ βαφής ψημένη γη, δρασκελίζει υπέρ νωθρού κυνός.",
    "敏捷的棕色狐狸跳过了懒狗。位置编码告诉模型每个词在哪里。",
    "いろはにほへと ちりぬるを。位置符号化は順序を教える。カタカナ",
    "다람쥐 헌 쳇바퀴에 타고파. 위치 인코딩.",
    "نص عربي مع أرقام ١٢٣ وعلامات، ترقيم؟",
    "हिन्दी में एक वाक्य, संख्या १२३ के साथ।",
    "ภาษาไทยไม่มีช่องว่างระหว่างคำ",
    "emoji 😀😃😄 🚀 and 👍🏽 and 👨‍👩‍👧‍👦 family and 🇫🇷 flag and ❤️ heart",
    "math: ∑_{i=1}^{n} x_i² ≤ ∞, α→β, ∀x∃y, 𝔽, 𝒳",
    "box ─│┌┐ arrows ←↑→↓ and symbols ©®™§¶†‡•…",
    "!!!??? ... --- ___ *** ### $$$ %%% &&& @@@ ~~~ ^^^ |||",
    "MiXeD CaSe ALLCAPS lowercase camelCase snake_case kebab-case",
    "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n"
    "<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n",
    "<|endoftext|><|endoftext|>text<|im_end|> <|im_start|> spaced <|im_end|>",
    "not special: <|im_start| and <im_start|> and <|IM_START|>",
    "<repo_name>posenc<file_sep>main.go<filename>x<gh_stars>10<jupyter_code>",
    "\x00\x01\x7f control bytes and \ufffd replacement",
]

# Random strings drawn from a pool that mixes every character class the
# pre-tokenizer treats differently, to find edges nobody thought of.
POOL = list("abcXYZé日ß") + list("0123٣½Ⅻ") + [" ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u3000"] + \
    list(".,;'\"!?-_()[]{}<>/\\@#$%^&*+=|~`") + ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S"] + \
    ["😀", "👍🏽", "\u200d", "e\u0301", "<|im_end|>", "<|endoftext|>"]
RANDOM_CASES = 300
RANDOM_SEED = 20261204


def main(model, corpus, out):
    reader = GGUFReader(model)

    def strings(key):
        f = reader.fields[key]
        return [bytes(f.parts[i]).decode("utf-8") for i in f.data]

    tokens = strings("tokenizer.ggml.tokens")
    merges = [tuple(m.split(" ")) for m in strings("tokenizer.ggml.merges")]
    types = reader.fields["tokenizer.ggml.token_type"]
    control = [i for i, d in enumerate(types.data) if int(types.parts[d][0]) == 3]

    tok = Tokenizer(models.BPE(vocab={t: i for i, t in enumerate(tokens)}, merges=merges,
                               fuse_unk=False, byte_fallback=False))
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Digits(individual_digits=True),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
    ])
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([AddedToken(tokens[i], special=True, normalized=False) for i in control])

    rng = random.Random(RANDOM_SEED)
    randoms = ["".join(rng.choice(POOL) for _ in range(rng.randint(1, 24))) for _ in range(RANDOM_CASES)]

    text = open(corpus, "rb").read()
    windows = []
    for start, end in WINDOWS:
        # Start and end at a line start, so that the window is valid UTF-8.
        start = text.rfind(b"\n", 0, start) + 1 if start else 0
        end = text.rfind(b"\n", 0, end) + 1
        ids = tok.encode(text[start:end].decode("utf-8"), add_special_tokens=True).ids
        windows.append({"start": start, "end": end, "ids": ids})

    cases = [{"text": s, "ids": tok.encode(s, add_special_tokens=True).ids} for s in CASES + randoms]

    # Where transformers' GGUF conversion (no Digits step) gives other ids.
    from transformers import AutoTokenizer
    import os
    hf = AutoTokenizer.from_pretrained(os.path.dirname(os.path.abspath(model)),
                                       gguf_file=os.path.basename(model))
    differ = [{"text": c["text"], "ids": c["ids"], "transformers_ids": hf.encode(c["text"], add_special_tokens=False)}
              for c in cases]
    differ = [d for d in differ if d["ids"] != d["transformers_ids"]]

    total = sum(len(w["ids"]) for w in windows) + sum(len(c["ids"]) for c in cases)
    json.dump({
        "source": "Hugging Face tokenizers %s (BPE from the GGUF's tokens and merges, SmolLM2's pre-tokenizer); "
                  "transformers %s for transformers_gguf; gguf %s" % (
                      importlib.metadata.version("tokenizers"), importlib.metadata.version("transformers"),
                      importlib.metadata.version("gguf")),
        "corpus": "pkg/lab/corpus/go-docs.txt",
        "tokens": total,
        "control_ids": control,
        "windows": windows,
        "cases": cases,
        "transformers_gguf": differ,
    }, open(out, "w"), ensure_ascii=False, separators=(",", ":"))
    print("%d tokens in %d windows and %d cases; %d cases where transformers' GGUF tokenizer differs" % (
        total, len(windows), len(cases), len(differ)))


if __name__ == "__main__":
    main(*sys.argv[1:])
