"""The cross-guide topic taxonomy, and the rules that put every resource under at least one topic.

The taxonomy starts from 002's eighteen numbered topics (same order, slugged), folds
in 004's seventeen sections and the 000/001 concept headings where they overlap
("10 Quantization" is 002's "Quantization & Model Compression"; "GPU architecture"
is "Hardware Architecture & Co-Design"), and adds what only the other guides cover
(Transformers, GEMM, MoE, training at scale, multimodal, ...).

A resource gets the topics of the sections it is listed in (nearest section with a
rule, in every guide listing it) plus the topics whose keywords appear in its title;
only a resource left with none is matched on its description and notes too, and one
matching nothing at all falls back to ``FALLBACK_TOPIC``. Titles, not descriptions,
so that a topic page lists what is about the topic, not everything that mentions it.
"""

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class TopicSpec:
    slug: str
    title: str
    description: str


TOPICS: tuple[TopicSpec, ...] = (
    # 002's topics 1-18, in the guide's order.
    TopicSpec(
        "llm-inference-fundamentals",
        "LLM Inference Fundamentals",
        "How a forward pass costs compute and memory, KV cache basics, what makes serving hard.",
    ),
    TopicSpec(
        "inference-engines-serving",
        "Inference Engines & Serving Systems",
        "vLLM, SGLang, TensorRT-LLM and friends: how serving engines are built and run.",
    ),
    TopicSpec(
        "attention-memory",
        "Attention Mechanisms & Memory Optimization",
        "MHA/MQA/GQA/MLA, FlashAttention, paged and long-context attention, KV cache, RoPE.",
    ),
    TopicSpec(
        "quantization-compression",
        "Quantization & Model Compression",
        "INT8/FP8/FP4 formats, PTQ and QAT, AWQ/GPTQ/GGUF, pruning and distillation.",
    ),
    TopicSpec(
        "cuda-gpu-kernels",
        "CUDA & GPU Kernel Programming",
        "The CUDA programming model, writing and tuning kernels, CUTLASS/CuTe, Triton, element-wise kernels.",
    ),
    TopicSpec(
        "structured-output",
        "Structured Output & Guided Decoding",
        "Constrained generation, grammars and guided decoding backends.",
    ),
    TopicSpec(
        "distributed-inference",
        "Distributed & Multi-GPU Inference",
        "Tensor, pipeline, sequence and expert parallelism; communication across GPUs and nodes.",
    ),
    TopicSpec(
        "post-training-fine-tuning",
        "Post-Training & Fine-Tuning",
        "SFT, RLHF, DPO/GRPO, LoRA/QLoRA, alignment and reasoning models.",
    ),
    TopicSpec(
        "hardware-architecture",
        "Hardware Architecture & Co-Design",
        "GPU and accelerator architecture (Volta to Blackwell, MI300, TPU), memory systems, co-design.",
    ),
    TopicSpec(
        "model-architectures",
        "Model Architectures & Alternatives",
        "State-space models, recurrent and hybrid architectures, model walkthroughs (DeepSeek, Qwen).",
    ),
    TopicSpec(
        "compilers-dsls",
        "Compilers & DSLs",
        "Triton, TileLang, CuTe DSL, MLIR, torch.compile/Inductor and auto-tuning.",
    ),
    TopicSpec(
        "security-confidential-inference",
        "Security & Confidential Inference",
        "Trusted execution for inference, jailbreaks and attacks on LLMs.",
    ),
    TopicSpec(
        "agents-tooling",
        "AI Agents & LLM Tooling",
        "Coding and kernel agents, agent harnesses, MCP and LLM tooling.",
    ),
    TopicSpec(
        "production-inference",
        "Production Inference at Scale",
        "Running inference in production: caching, cost, latency and fleet efficiency.",
    ),
    TopicSpec(
        "benchmarking-profiling",
        "Benchmarking & Profiling",
        "Profilers (Nsight, PyTorch Profiler), roofline analysis, benchmarks and performance metrics.",
    ),
    TopicSpec(
        "courses-guides",
        "Courses & Comprehensive Guides",
        "University courses, books and end-to-end guides worth following from start to finish.",
    ),
    TopicSpec(
        "tools-libraries",
        "Tools & Libraries",
        "Open-source frameworks and libraries worth knowing or contributing to.",
    ),
    TopicSpec(
        "reference-collections",
        "Reference Collections & Blogs",
        "Blogs, channels, newsletters and curated lists to follow over time.",
    ),
    # Beyond 002: 004's sections and the 000/001/003 headings that 002 has no topic for.
    TopicSpec(
        "transformers-llm-basics",
        "Transformers & LLM Basics",
        "How transformers and LLMs work, their history, and building one from scratch.",
    ),
    TopicSpec(
        "gemm-precision",
        "GEMM & Numerical Precision",
        "Matrix multiplication as the core operation, mixed precision and number formats.",
    ),
    TopicSpec(
        "mixture-of-experts",
        "Mixture of Experts",
        "MoE models and their kernels: routing, dispatch/combine, expert parallelism.",
    ),
    TopicSpec(
        "inference-optimization",
        "Inference Optimization",
        "Batching, speculative decoding, prefill/decode optimizations, caching.",
    ),
    TopicSpec(
        "scheduling-routing",
        "Scheduling, Routing & Disaggregation",
        "Request scheduling and routing, prefill/decode disaggregation.",
    ),
    TopicSpec(
        "training-at-scale",
        "Training Frameworks & Large-Scale Training",
        "Megatron, DeepSpeed, FSDP, pre-training recipes and training on many GPUs.",
    ),
    TopicSpec(
        "diffusion-generative",
        "Diffusion & Generative Media",
        "Diffusion models, image and video generation, and their acceleration.",
    ),
    TopicSpec(
        "multimodal",
        "Vision, Speech & Multimodal Models",
        "Vision-language models, text-to-speech and other modalities.",
    ),
    TopicSpec(
        "reinforcement-learning",
        "Reinforcement Learning",
        "RL foundations, environments and RL for language models.",
    ),
    TopicSpec(
        "ml-foundations",
        "Math & ML Foundations",
        "The mathematics and deep-learning fundamentals everything else builds on.",
    ),
    TopicSpec(
        "software-engineering",
        "Software & Web Engineering",
        "Web development, tooling and general software craft for ML engineers.",
    ),
    TopicSpec("interview-prep", "Interview Prep", "AI infrastructure interview topics."),
)
FALLBACK_TOPIC = "reference-collections"

# Section titles (any guide) → topics. The nearest section with a matching rule decides, and
# within a title the first matching rule wins (so the specific rules come first).
SECTION_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"superfast inference", ("inference-optimization",)),
    (
        r"distributed training|training multiple gpus",
        ("training-at-scale", "distributed-inference"),
    ),
    (r"^ml book$", ("ml-foundations", "courses-guides")),
    (r"rl & alignment", ("post-training-fine-tuning", "reinforcement-learning")),
    (r"systems & optimization", ("cuda-gpu-kernels", "distributed-inference")),
    (r"^llm inference fundamentals$", ("llm-inference-fundamentals",)),
    (r"inference engines|serving systems|software tools ai", ("inference-engines-serving",)),
    (r"attention", ("attention-memory",)),
    (r"quantization", ("quantization-compression",)),
    (
        r"cuda|gpu programming|kernel programming|elementwise kernels|algorithms for kernel|"
        r"practical",
        ("cuda-gpu-kernels",),
    ),
    (r"structured output|guided decoding", ("structured-output",)),
    (r"distributed.*inference|multi-gpu|^parallelism$", ("distributed-inference",)),
    (r"post-training|fine-tun|reasoning models", ("post-training-fine-tuning",)),
    (r"hardware architecture|gpu architecture|kernel level and memory", ("hardware-architecture",)),
    (r"state-space|alternative architectures|model architectures", ("model-architectures",)),
    (r"compiler|dsl", ("compilers-dsls",)),
    (r"secure inference|hacking llms", ("security-confidential-inference",)),
    (r"agents|kernel agent|^mcp$", ("agents-tooling",)),
    (r"production inference", ("production-inference",)),
    (r"benchmarking|profiling|^performance$", ("benchmarking-profiling",)),
    (r"courses|free guides|^ml book$|books reading list|book to read", ("courses-guides",)),
    (r"tools & libraries|open-source projects|get started in these|^github$", ("tools-libraries",)),
    (
        r"reference collections|blogs to read|blog sites|youtube|^insights$|"
        r"supplementary",
        ("reference-collections",),
    ),
    (
        r"^transformer$|evolution of llms|2b model from scratch|^llm focus$",
        ("transformers-llm-basics",),
    ),
    (r"gemm|core operations", ("gemm-precision",)),
    (r"\bmoe\b", ("mixture-of-experts",)),
    (r"inference optimization|^optimizations$|superfast inference", ("inference-optimization",)),
    (r"scheduling|routing", ("scheduling-routing",)),
    (r"training engineering|training frameworks", ("training-at-scale",)),
    # not "applications": "LLM Applications" (LangChain, LlamaIndex, DSPy) are not generative media
    (
        r"video gen|image gen|diffusion|text-to-(image|video)|generative media",
        ("diffusion-generative",),
    ),
    (r"vision model|^tts$", ("multimodal",)),
    (r"unsupervised learning and rl", ("reinforcement-learning",)),
    (r"foundations$", ("ml-foundations",)),  # not "papers to read": a paper list is not about maths
    (r"web development", ("software-engineering",)),
    (r"interview", ("interview-prep",)),
)

# Words in a resource's own title/description/note → topics.
KEYWORD_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        r"\bkv ?cache|kvcache|forward pass|inference arithmetic|nondetermini",
        ("llm-inference-fundamentals",),
    ),
    (
        r"\bvllm\b|sglang|tensorrt-llm|tensorrt llm|serving engine|inference engine|llm-d\b|\btgi\b|ollama",
        ("inference-engines-serving",),
    ),
    (
        r"attention|\brope\b|rotary|positional embedding|long[- ]context|\bmla\b|\bgqa\b|\bmqa\b|softmax|"
        r"\bkv ?cache|kvcache",
        ("attention-memory",),
    ),
    (
        r"quantiz|\bint8\b|\bfp8\b|\bfp4\b|nvfp4|\bawq\b|gptq|gguf|q\w{0,2}lora|bitsandbytes|pruning|4-?bit|"
        r"distill(ation|ed|ing)\b|1-bit|low[- ]precision|\bw\d{1,2}a\d{1,2}\b|\bquanto\b|tinyml|"
        r"efficient deep learning",
        ("quantization-compression",),
    ),
    (
        r"\bcuda\b|kernels?\b(?! discrepanc)|triton|cutlass|\bcute\b|\bptx\b|warp|wgmma|cublas|"
        r"gpu programming|gpu puzzles|\bsm\b",
        ("cuda-gpu-kernels",),
    ),
    (
        r"structured output|guided decoding|grammar|constrained (generation|decoding)",
        ("structured-output",),
    ),
    (
        r"parallelism|scaling book|scale your model|scaling a model|distributed|multi-gpu|nccl|"
        r"collective|rdma|\broce|sharded|fsdp|communication",
        ("distributed-inference",),
    ),
    (
        r"post[- ]training(?![- ]quantiz)|fine[- ]tun|finetun|\b\w{0,2}lora\b|rlhf|\bdpo\b|grpo|\bppo\b|alignment|"
        r"\bsft\b|reasoning|(reinforcement learning|\brl\b).{0,40}\bllms?\b|inference[- ]time scaling|"
        r"test[- ]time (compute|scaling)",
        ("post-training-fine-tuning",),
    ),
    (
        r"gpu architecture|hardware|accelerator|\btpu\b|\bhbm\b|\bsram\b|blackwell|hopper|rubin|mi300|co-design|"
        r"memory wall|microbenchmark|trainium|silicon|apple silicon|gpu gems|intro to gpus|intuition about gpus",
        ("hardware-architecture",),
    ),
    (
        r"state[- ]space|mamba|memoriz|\brnn|lstm|\bgru\b|recurrent|hyper-connections|"
        r"universal transformer|architecture search|jepa",
        ("model-architectures",),
    ),
    (
        r"compil|\bdsl\b|mlir|tilelang|inductor|helion|tile ir|torch\.compile|triton(?!-?llm| inference server)",
        ("compilers-dsls",),
    ),
    (
        r"confidential|trusted execution|\btee|jailbreak|hack|exploit|bypass|prompt hacking|liberator",
        ("security-confidential-inference",),
    ),
    (
        r"agentic|agent[- ](assisted|based)|\b(ai|llm|kernel) agents?\b|\bmcp\b|model context protocol|"
        r"copilot|coding agent|harness|claude code",
        ("agents-tooling",),
    ),
    (
        r"production|at scale|\bcosts?\b|latency|\broi\b|lmcache|tensormesh",
        ("production-inference",),
    ),
    (
        r"benchmark|profil|roofline|performance metrics|nsight|perf engineering|go brrr|performance tuning",
        ("benchmarking-profiling",),
    ),
    (
        r"\bcourse\b|lecture|syllabus|cs\d{3}|cse\d{3}|cme \d{3}|playbook|handbook|comprehensive guide",
        ("courses-guides",),
    ),
    (
        r"library|framework|toolkit|\btool\b|wiki|repository|open source|open-source|plugin|"
        r"\bjax\b",
        ("tools-libraries",),
    ),
    (
        r"\bblogs\b|newsletter|channel|office hours|archive|collection|reading list|"
        r"timeline",
        ("reference-collections",),
    ),
    (
        r"transformer|\bgpt\b|\bbert\b|scaling laws|llms? from scratch|history of|machine translation|"
        r"seq2seq|sequence to sequence",
        ("transformers-llm-basics",),
    ),
    (
        r"\bgemm|\bgemv\b|matmul|matrix[- ]multipl|mixed[- ]precision|floating point|data ?type|"
        r"\bbf16\b|\bfp(4|8|16|32)\b|nvfp4|cublas|"
        r"stochastic rounding|numerics|transpose",
        ("gemm-precision",),
    ),
    (
        r"\bmoe\b|mixture[- ]of[- ]experts|expert parallel|routed experts|"
        r"\bexperts?\b",
        ("mixture-of-experts",),
    ),
    (
        r"speculative|batching|prefill|decoding|offload|inference optimi|optimization techniques|"
        r"inference speed|faster",
        ("inference-optimization",),
    ),
    (r"scheduling|scheduler|routing|router|disaggregat", ("scheduling-routing",)),
    (
        r"pre-?training|megatron|deepspeed|torchtitan|batch size|distributed training|large-scale training|"
        r"training (llms|on gpu|at scale|multiple gpus)|test-time training|sharded training|large[- ]batch",
        ("training-at-scale",),
    ),
    (
        r"diffusion|video gen|image gen|flux|world model|artistic style|magi|image editing|"
        r"step1x",
        ("diffusion-generative",),
    ),
    (
        r"\bvision|\bvlm|\bclip\b|speech|\btts\b|audio|multimodal|multi-modal|image recognition|"
        r"moondream|sesame",
        ("multimodal",),
    ),
    (
        r"reinforcement|\brl\b|gymnasium|gaming agents|grpo|\bppo\b|rlhf",
        ("reinforcement-learning",),
    ),
    (
        r"mathemat|linear algebra|bayesian|statistic|immersivemath|\bmml\b|deep-ml|recommender",
        ("ml-foundations",),
    ),
    (
        r"web ?dev|webgl|shader|responsive|three\.js|p5\.js|\bui\b|node\.?js|nodebestpractices|"
        r"command line|leetcode|neetcode|build your own|"
        r"computer science|what happens when|code golf|codegen|repomix|ai-sdk|sudoku|joshwcomeau|patterns\.dev",
        ("software-engineering",),
    ),
    (r"interview|leetcode|neetcode", ("interview-prep",)),
)

# Broad words that name a subject only when nothing more specific does: "RoCEv2 for Deep Learning"
# is networking, "Prompt hacking of large language models" security, "RL training of gaming
# agents" reinforcement learning.
WEAK_KEYWORD_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        r"language model|\bllms?\b(?= (basics|explained|internals))|\bllama\b(?!\.cpp)|encoder|embedding",
        ("transformers-llm-basics",),
    ),
    (
        r"deep learning|machine learning|\bml basics|neural network",
        ("ml-foundations",),
    ),
    (r"\bagents?\b", ("agents-tooling",)),
)
# What kind of thing a resource is, not what it is about: a resource with only these from its
# title and sections is also matched on its description ("CS229: 20 videos on ML basics").
FORMAT_TOPICS = frozenset({"courses-guides", "reference-collections", "tools-libraries"})

_SECTION_PATTERNS = [(re.compile(p, re.IGNORECASE), slugs) for p, slugs in SECTION_RULES]
_KEYWORD_PATTERNS = [(re.compile(p, re.IGNORECASE), slugs) for p, slugs in KEYWORD_RULES]
_WEAK_PATTERNS = [(re.compile(p, re.IGNORECASE), slugs) for p, slugs in WEAK_KEYWORD_RULES]


def _matches(patterns, text: str) -> list[str]:
    found: list[str] = []
    for pattern, slugs in patterns:
        if pattern.search(text):
            found.extend(slug for slug in slugs if slug not in found)
    return found


def section_topics(titles: list[str]) -> list[str]:
    """Topics for a section, given its title and its ancestors' titles (nearest first)."""
    for title in titles:
        for pattern, slugs in _SECTION_PATTERNS:
            if pattern.search(title):
                return list(slugs)
    return []


def url_words(url: str | None) -> str:
    """The words of a URL's path (``/p/lora-and-qlora-explained`` → ``"p lora and qlora explained"``),
    without the product a documentation path is under: ``/docs/transformers/…/torchao`` is about
    torchao, and "transformers" there is the library's name, not the subject."""
    if not url:
        return ""
    path, _, fragment = url.split("://", 1)[-1].partition("/")[2].partition("#")
    segments = [
        *path.split("?", 1)[0].split("/"),
        fragment,
    ]  # an anchor names a section: #web_development
    kept = [s for i, s in enumerate(segments) if i == 0 or segments[i - 1].lower() not in _DOCS]
    return re.sub(r"[-_/.+]+", " ", "/".join(kept))


_DOCS = {"docs", "doc", "documentation"}


def keyword_topics(*texts: str) -> list[str]:
    """Topics whose keywords appear in any of ``texts``; the broad words
    (``WEAK_KEYWORD_RULES``) count only when no other keyword matched."""
    text = " \n ".join(t for t in texts if t)
    return _matches(_KEYWORD_PATTERNS, text) or _matches(_WEAK_PATTERNS, text)


def order_topics(slugs) -> list[str]:
    """``slugs`` without duplicates, in taxonomy order (so fixtures do not depend on discovery order)."""
    wanted = set(slugs)
    return [topic.slug for topic in TOPICS if topic.slug in wanted]
