"""Local ML models loaded or run in process: transformers, sentence-transformers, BERTScore,
BLEURT, spaCy, ONNX Runtime, fastembed, PyTorch checkpoints, and the metrics rewards compute with
them (ROUGE, HF ``evaluate``).

Loading a model (``AutoModel*.from_pretrained``, ``AutoTokenizer.from_pretrained``,
``transformers.pipeline(...)``, ``SentenceTransformer(...)``, ``BleurtScorer(checkpoint)``,
``spacy.load``) reads its weights from disk and builds it in memory; a Hub model also asks the
Hub for the latest revision on every load unless offline (transformers/utils/hub.py
``cached_files`` -> ``hf_hub_download`` without ``local_files_only``) and downloads it the first
time. ``from_pretrained`` is the whole Hugging Face ecosystem's name for that load (transformers'
model classes, optimum's ``ORTModel*``, diffusers, peft), so any call of it is one.
``bert_score.score`` loads its model and tokenizer on *every* call (score.py: ``get_tokenizer``,
``get_model`` -> ``AutoModel.from_pretrained``, no cache) before it runs them; a ``BERTScorer``
loads once when built. Running a model (a pipeline called, ``model.generate``, a forward pass,
``encode``, ``BleurtScorer.score``) is tens of milliseconds to seconds of tensor work; torch,
TensorFlow and ONNX Runtime release the GIL while they compute, so ``asyncio.to_thread`` really
frees the loop. None of these libraries has an async API: load the model once at start-up
(module level, ``load_environment``, ``__init__``), which is never reported, and run it in a
worker thread; a model built behind an ``is None`` guard is reported on the first call only.

Tokenizer calls and ROUGE are graded by what they are handed: a fast tokenizer encodes a short
reply in microseconds and a whole history in milliseconds, and ``apply_chat_template`` renders
a Jinja template in Python. ROUGE (``rouge``'s ``Rouge.get_scores``, ``rouge_score``'s
``RougeScorer.score``) is pure Python: n-gram counts plus an O(n·m) LCS table for ROUGE-L,
microseconds for two sentences, tens of milliseconds or more for whole completions; it holds the
GIL, so a thread does not help throughput (no automatic recipe). ``evaluate.load`` fetches the
metric's script from the Hub; ``EvaluationModule.compute`` writes the predictions to an Arrow
cache file under a file lock, reads them back and deletes it (module.py: ``add_batch``,
``_finalize``; ``keep_in_memory=True`` keeps them in memory) before it runs the metric. spaCy's
``nlp(text)`` runs its pipeline in Cython and Python holding the GIL: milliseconds per sentence
with the small pipelines; ``nlp.pipe(texts)`` does the same for each text as it is iterated.
``spacy.blank(lang)`` loads no weights but builds a whole pipeline object (the language's config
validated, a Vocab, a Tokenizer with its regexes and every tokenizer exception added): CPU to
do once at start-up, not per rollout.

A PyTorch checkpoint (``torch.load``) is read whole: the zip archive is opened and every tensor's
storage is read from it into CPU memory while the pickle is undone (unless ``mmap=True``), so a
checkpoint of MBs to GBs costs what a model load does, whatever the code then builds from it;
``torch.save`` writes every storage of what it is handed into the archive. Both belong at
start-up (a checkpoint loaded once and its networks kept), or in a worker thread.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_TRANSFORMERS = "source: pkg transformers 5.24.0"
_HUB_LOAD = (
    f"{_TRANSFORMERS} transformers/modeling_utils.py, tokenization_utils_base.py (from_pretrained -> "
    "utils/hub.py cached_files -> hf_hub_download unless local_files_only or offline)"
)
_ST = "source: pkg sentence-transformers 6.2.0"
_BERT_SCORE = "source: pkg bert-score 0.3.13"
_BLEURT = "source: google-research/bleurt@cebe7e6 (GitHub; not on PyPI) bleurt/score.py"
_ROUGE = "source: pkg rouge 1.0.1 rouge/rouge.py, rouge_score.py (pure Python n-grams and LCS)"
_ROUGE_SCORE = "source: pkg rouge-score 0.1.2 rouge_score/rouge_scorer.py (pure Python n-grams, _lcs_table)"
_EVALUATE = "source: pkg evaluate 0.4.6"
_SPACY = "source: pkg spacy 3.8.18"
_ONNXRUNTIME = (
    "source: pkg onnxruntime 1.20.1 onnxruntime/capi/onnxruntime_inference_collection.py (InferenceSession.__init__ "
    "-> _create_inference_session: reads the model file and optimizes its graph; Session.run: one forward pass, "
    "the GIL released while the C++ kernels run)"
)
_FASTEMBED = (
    "source: pkg fastembed 0.9.1 fastembed/text/onnx_embedding.py (OnnxTextEmbedding.__init__: download_model from "
    "the Hub unless cached, then load_onnx_model unless lazy_load; embed/query_embed/passage_embed yield from "
    "_embed_documents), text/text_embedding.py (TextEmbedding: the same, generators)"
)
#: fastembed's embedding generators: the model runs as they are iterated.
_FASTEMBED_EMBEDS = ("embed", "query_embed", "passage_embed")
_TORCH = (
    "source: github pytorch/pytorch v2.8.0 torch/serialization.py (load: _open_file_like, _open_zipfile_reader, "
    "then _load unpickles and reads every storage from the archive into CPU memory unless mmap=True; save: "
    "_open_zipfile_writer, _save writes every storage)"
)
#: What a finding of a load says to use instead (follows "use"): none of these has an async API.
LOAD_ONCE = "one model loaded at start-up (module level, `load_environment`, `__init__`) and reused"
BERT_SCORE_ONCE = (
    "one `bert_score.BERTScorer(...)` built at start-up and its `.score(...)` in a worker thread "
    "(`bert_score.score` loads the model on every call)"
)

#: transformers' Auto classes (transformers/models/auto/*.py): what each ``from_pretrained`` gives.
_AUTO_MODELS = (
    "AutoModel AutoModelForCausalLM AutoModelForSeq2SeqLM AutoModelForMaskedLM AutoModelForSequenceClassification "
    "AutoModelForTokenClassification AutoModelForQuestionAnswering AutoModelForMultipleChoice "
    "AutoModelForNextSentencePrediction AutoModelForPreTraining AutoModelForTextEncoding AutoModelForImageTextToText "
    "AutoModelForImageClassification AutoModelForSpeechSeq2Seq AutoModelForCTC "
    "AutoModelForAudioClassification AutoModelForObjectDetection AutoModelForZeroShotImageClassification "
    "AutoModelForMultimodalLM AutoModelForDocumentQuestionAnswering AutoModelForTableQuestionAnswering "
    "AutoModelForVisualQuestionAnswering AutoModelForImageSegmentation AutoModelForSemanticSegmentation "
    "AutoModelForDepthEstimation AutoModelForMaskGeneration AutoBackbone"
).split()
#: Concrete model classes loaded by name rather than through an Auto class (``CLIPModel.from_pretrained``),
#: each a ``PreTrainedModel`` (transformers/models/<family>/modeling_<family>.py).
_NAMED_MODELS = (
    "CLIPModel CLIPTextModel CLIPVisionModel CLIPTextModelWithProjection CLIPVisionModelWithProjection "
    "SiglipModel SiglipTextModel SiglipVisionModel BlipModel BlipForConditionalGeneration BlipForQuestionAnswering "
    "Blip2Model Blip2ForConditionalGeneration LlavaForConditionalGeneration Qwen2VLForConditionalGeneration "
    "BertModel BertForSequenceClassification RobertaModel RobertaForSequenceClassification GPT2Model GPT2LMHeadModel "
    "T5Model T5ForConditionalGeneration T5EncoderModel WhisperForConditionalGeneration ViTModel "
    "ViTForImageClassification"
).split()
_AUTO_OTHERS = (
    "AutoTokenizer AutoConfig AutoProcessor AutoImageProcessor AutoFeatureExtractor AutoVideoProcessor"
).split()
MODEL = "transformers.PreTrainedModel"
TOKENIZER = "transformers.PreTrainedTokenizerBase"
PIPELINE = "transformers.Pipeline"
_ST_MODELS = ("SentenceTransformer", "SparseEncoder")
_BLEURT_SCORERS = ("BleurtScorer", "LengthBatchingBleurtScorer", "SavedModelBleurtScorer")
SPACY_LANGUAGE = "spacy.language.Language"


def _load(pattern: str, source: str, twin: str = LOAD_ONCE) -> BlockingApi:
    return entry(pattern, "cpu", "model-load", "to-thread", frozenset(), source, twin)


def _run(pattern: str, source: str) -> BlockingApi:
    return entry(pattern, "cpu", "model-inference", "to-thread", frozenset(), source)


APIS: tuple[BlockingApi, ...] = (
    # --- transformers -------------------------------------------------------------------------
    *(_load(f"transformers.{auto}.from_pretrained", _HUB_LOAD) for auto in (*_AUTO_MODELS, *_AUTO_OTHERS)),
    _load(
        "*.from_pretrained",
        f"{_HUB_LOAD}; optimum-onnx 0.1.0 optimum/onnxruntime/modeling.py "
        "(ORTModel._from_pretrained: _cached_file, then an InferenceSession)",
    ),
    *(
        _load(
            name,
            f"{_TRANSFORMERS} transformers/pipelines/__init__.py (pipeline: AutoConfig, the model's and the "
            "tokenizer's from_pretrained)",
        )
        for name in ("transformers.pipeline", "transformers.pipelines.pipeline")
    ),
    _run(
        f"{PIPELINE}.__call__",
        f"{_TRANSFORMERS} transformers/pipelines/base.py (Pipeline.__call__: preprocess, forward, postprocess)",
    ),
    _run(f"{MODEL}.generate", f"{_TRANSFORMERS} transformers/generation/utils.py (GenerationMixin.generate)"),
    *many(
        "cpu",
        "model-inference",
        "to-thread",
        "get_image_features get_text_features",
        f"{MODEL}.",
        source=f"{_TRANSFORMERS} transformers/models/clip/modeling_clip.py, siglip, blip, blip_2 (CLIPModel."
        "get_image_features: the vision tower's forward and the projection)",
    ),
    _run(
        f"{MODEL}.__call__",
        f"{_TRANSFORMERS} transformers/modeling_utils.py (PreTrainedModel: an nn.Module whose __call__ runs forward)",
    ),
    *many(
        "cpu",
        "payload",
        "to-thread",
        "apply_chat_template",
        f"{TOKENIZER}.",
        source=f"{_TRANSFORMERS} transformers/tokenization_utils_base.py (apply_chat_template renders the "
        "template with jinja2)",
    ),
    # A BPE tokenizer graded as tiktoken's encode is (costs.PAYLOAD_GRADES "payload-tokenize"): one reply
    # is tenths of a millisecond, more than a thread hop (session 25, size22: a fast byte-level BPE
    # tokenizer measured 0.4 ms of CPU for 2 KB, 10 ms for 32 KB, 3-5 MB/s).
    *many(
        "cpu",
        "payload-tokenize",
        "to-thread",
        "__call__ encode decode batch_decode",
        f"{TOKENIZER}.",
        source=f"{_TRANSFORMERS} transformers/tokenization_utils_base.py (__call__, encode: the backend "
        "tokenizer's BPE merges; decode, batch_decode: the backend's detokenization of every id)",
    ),
    # --- PyTorch checkpoints ------------------------------------------------------------------
    *(_load(name, _TORCH) for name in ("torch.load", "torch.serialization.load")),
    *(
        entry(name, "fs", "disk-content", "to-thread", frozenset(), _TORCH)
        for name in ("torch.save", "torch.serialization.save")
    ),
    # --- sentence-transformers ----------------------------------------------------------------
    *(
        _load(
            f"sentence_transformers.{cls}",
            f"{_ST} sentence_transformers/base/model.py (BaseModel.__init__ -> "
            "_load_modules: load_file_path, the transformer's from_pretrained)",
        )
        for cls in (*_ST_MODELS, "CrossEncoder")
    ),
    *(
        api
        for cls in _ST_MODELS
        for api in many(
            "cpu",
            "model-inference",
            "to-thread",
            "encode encode_query encode_document",
            f"sentence_transformers.{cls}.",
            source=f"{_ST} sentence_transformers/sentence_transformer/model.py, sparse_encoder/model.py (encode)",
        )
    ),
    *many(
        "cpu",
        "model-inference",
        "to-thread",
        "predict rank",
        "sentence_transformers.CrossEncoder.",
        source=f"{_ST} sentence_transformers/cross_encoder/model.py (predict, rank)",
    ),
    # --- BERTScore ----------------------------------------------------------------------------
    *(
        _load(
            name,
            f"{_BERT_SCORE} bert_score/score.py (score: get_tokenizer, get_model -> AutoModel.from_pretrained "
            "on every call, then bert_cos_score_idf)",
            BERT_SCORE_ONCE,
        )
        for name in ("bert_score.score", "bert_score.score.score")
    ),
    _load("bert_score.BERTScorer", f"{_BERT_SCORE} bert_score/scorer.py (BERTScorer.__init__: get_model)"),
    _run("bert_score.BERTScorer.score", f"{_BERT_SCORE} bert_score/scorer.py (BERTScorer.score: bert_cos_score_idf)"),
    # --- BLEURT (TensorFlow) ------------------------------------------------------------------
    *(
        _load(
            f"bleurt.score.{cls}",
            f"{_BLEURT} ({cls}.__init__: the checkpoint's config, tokenizer and tf.saved_model.load)",
        )
        for cls in _BLEURT_SCORERS
    ),
    *(_run(f"bleurt.score.{cls}.score", f"{_BLEURT} ({cls}.score: TensorFlow predictions)") for cls in _BLEURT_SCORERS),
    # --- ROUGE --------------------------------------------------------------------------------
    entry("rouge.Rouge.get_scores", "cpu", "payload", None, frozenset(), _ROUGE),
    *many("cpu", "payload", None, "score score_multi", "rouge_score.rouge_scorer.RougeScorer.", source=_ROUGE_SCORE),
    # --- HF evaluate --------------------------------------------------------------------------
    *(
        entry(
            name,
            "http",
            "network",
            "to-thread",
            frozenset(),
            f"{_EVALUATE} evaluate/loading.py (load -> evaluation_module_factory: the metric's script from the Hub, "
            "download_and_prepare)",
        )
        for name in ("evaluate.load", "evaluate.loading.load")
    ),
    *many(
        "fs",
        "disk-content",
        "to-thread",
        "compute add_batch add",
        "evaluate.EvaluationModule.",
        source=f"{_EVALUATE} evaluate/module.py (add_batch -> _init_writer: ArrowWriter to a cache file under a "
        "FileLock; compute -> _finalize reads it back, then _compute)",
    ),
    # --- ONNX Runtime and fastembed -----------------------------------------------------------
    # A session reads the model and optimizes its graph when built; fastembed's model builds one
    # (after a Hub download the first time) unless ``lazy_load=True``, which moves that to the
    # first embed.
    _load("onnxruntime.InferenceSession", _ONNXRUNTIME),
    _run("onnxruntime.InferenceSession.run", _ONNXRUNTIME),
    _load("fastembed.TextEmbedding", _FASTEMBED),
    *(
        entry(f"fastembed.TextEmbedding.{embed}", "cpu", "model-inference", None, frozenset(), _FASTEMBED)
        for embed in _FASTEMBED_EMBEDS
    ),
    # --- spaCy --------------------------------------------------------------------------------
    *(
        _load(
            name,
            f"{_SPACY} spacy/__init__.py, util.py (load -> load_model: the package's config and weights from disk)",
        )
        for name in ("spacy.load", "spacy.util.load_model")
    ),
    entry(
        f"{SPACY_LANGUAGE}.__call__",
        "cpu",
        "cpu-heavy",
        None,
        frozenset(),
        f"{_SPACY} spacy/language.py (Language.__call__: tokenizer, then every pipe)",
    ),
    # No weights, but a whole pipeline object: the language's default config merged and
    # validated, a Vocab, and a Tokenizer that compiles the prefix/suffix/infix regexes and adds
    # every tokenizer exception as a special case.
    entry(
        "spacy.blank",
        "cpu",
        "cpu-heavy",
        "to-thread",
        frozenset(),
        f"{_SPACY} spacy/__init__.py (blank -> util.get_lang_class, Language.from_config), language.py "
        "(from_config: Config merge and registry.resolve; create_tokenizer), tokenizer.pyx (_load_special_cases)",
        "one `spacy.blank(...)` built at start-up (module level, `load_environment`, `__init__`) and reused",
    ),
    # A generator function: the pipeline runs on each text as it is iterated.
    entry(
        f"{SPACY_LANGUAGE}.pipe",
        "cpu",
        "cpu-heavy",
        None,
        frozenset(),
        f"{_SPACY} spacy/language.py (Language.pipe: yields each Doc after the tokenizer and every pipe)",
    ),
)

#: ``nlp.pipe(texts)`` and fastembed's ``embed(texts)`` do nothing until they are iterated.
DEFERRED: dict[str, str] = {
    f"{SPACY_LANGUAGE}.pipe": f"a generator that runs the pipeline on each text as it is iterated ({_SPACY} "
    "spacy/language.py: Language.pipe yields)",
    **{
        f"fastembed.TextEmbedding.{embed}": "a generator that runs the model on each batch as it is iterated "
        "(fastembed 0.9.1 text/text_embedding.py: yield from)"
        for embed in _FASTEMBED_EMBEDS
    },
}

RETURNS: dict[str, str] = {
    **{f"transformers.{auto}.from_pretrained()": MODEL for auto in (*_AUTO_MODELS, *_NAMED_MODELS)},
    "transformers.AutoTokenizer.from_pretrained()": TOKENIZER,
    "transformers.pipeline()": PIPELINE,
    "transformers.pipelines.pipeline()": PIPELINE,
    # nn.Module.to/eval/cuda/half return the module itself.
    **{f"{MODEL}.{method}()": MODEL for method in ("to", "eval", "cuda", "half", "float")},
    "transformers.modeling_utils.PreTrainedModel": MODEL,
    **{
        f"transformers.{cls}": TOKENIZER
        for cls in (
            "PreTrainedTokenizer",
            "PreTrainedTokenizerFast",
            "tokenization_utils_base.PreTrainedTokenizerBase",
        )
    },
    "transformers.pipelines.Pipeline": PIPELINE,
    "transformers.pipelines.base.Pipeline": PIPELINE,
    "sentence_transformers.sentence_transformer.model.SentenceTransformer": "sentence_transformers.SentenceTransformer",
    "sentence_transformers.cross_encoder.model.CrossEncoder": "sentence_transformers.CrossEncoder",
    "bert_score.scorer.BERTScorer": "bert_score.BERTScorer",
    "evaluate.load()": "evaluate.EvaluationModule",
    "evaluate.loading.load()": "evaluate.EvaluationModule",
    "evaluate.module.EvaluationModule": "evaluate.EvaluationModule",
    "spacy.load()": SPACY_LANGUAGE,
    "spacy.util.load_model()": SPACY_LANGUAGE,
    "spacy.blank()": SPACY_LANGUAGE,
    "spacy.Language": SPACY_LANGUAGE,
    "fastembed.text.text_embedding.TextEmbedding": "fastembed.TextEmbedding",
    "onnxruntime.capi.onnxruntime_inference_collection.InferenceSession": "onnxruntime.InferenceSession",
}
