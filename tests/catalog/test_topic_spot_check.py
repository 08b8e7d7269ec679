"""A hand-checked spot check of the topics the importer gives the five bundled guides' resources.

Each row was written by reading the resource (its title, its link, what the guide says about
it), not by copying the importer's output: the topics it must have, and topics it must not
have. Every slug in a row is one checked assignment; the fixture must get at least
``REQUIRED`` of them right. A row names a resource by its title, or by its URL when two
resources share a title.
"""

import json

import pytest

from apps.catalog.importer.fixtures import FIXTURE_PATH
from apps.catalog.importer.parser import parse_guide
from apps.catalog.importer.planner import _Planner

REQUIRED = 0.95

# (title or URL, topics it must have, topics it must not have)
SAMPLE: list[tuple[str, set[str], set[str]]] = [
    # --- ai-cheatsheet ---------------------------------------------------------------------
    ("CME 295", {"courses-guides", "transformers-llm-basics"}, set()),
    (
        "https://huggingface.co/spaces/nanotron/ultrascale-playbook",
        {"training-at-scale", "distributed-inference", "courses-guides"},
        set(),
    ),
    ("NVIDIA Developer Blog", {"reference-collections"}, set()),
    ("vLLM office hours", {"inference-engines-serving"}, set()),
    ("GPU Mode", {"cuda-gpu-kernels", "reference-collections"}, set()),
    ("Understanding GPU architecture with MatMul", {"hardware-architecture"}, set()),
    ("CUDA programming model", {"cuda-gpu-kernels"}, {"ml-foundations"}),
    ("Prefix Sum/ Scan in GPU", {"cuda-gpu-kernels"}, set()),
    ("Encoder-only and Decoder-only models", {"transformers-llm-basics"}, {"diffusion-generative"}),
    (
        "Multi-head attention (MHA), Multi-Query attention (MQA), Group Query Attention (GQA), "
        "MLA (used in DeepSeek)",
        {"attention-memory"},
        set(),
    ),
    (
        "Ring Attention (links to Context Parallelism CP)",
        {"attention-memory", "distributed-inference"},
        set(),
    ),
    (
        "KV cache, FP8 KV cache, Paged Attention",
        {"attention-memory", "llm-inference-fundamentals"},
        set(),
    ),
    ("Quantization basics", {"quantization-compression"}, {"ml-foundations"}),
    # PTQ is post-training *quantization*, not post-training of the model
    ("LLM quantization with PTQ", {"quantization-compression"}, {"post-training-fine-tuning"}),
    ("FP8 datatype", {"quantization-compression", "gemm-precision"}, set()),
    ("NVFP4 training", {"quantization-compression", "gemm-precision"}, set()),
    ("Quantization on CPU (GGUF, AWQ, GPTQ)", {"quantization-compression"}, set()),
    ("Pruning and distillation", {"quantization-compression"}, {"transformers-llm-basics"}),
    ("Post-training 101", {"post-training-fine-tuning"}, {"quantization-compression"}),
    ("Chunk prefill - SARATHI paper", {"inference-optimization"}, set()),
    ("Speculative decoding", {"inference-optimization"}, set()),
    (
        "MoE using Wide Expert Parallelism EP",
        {"mixture-of-experts", "distributed-inference"},
        set(),
    ),
    ("vLLM arch", {"inference-engines-serving"}, set()),
    ("MinMax M2 using Full Attention", {"attention-memory"}, set()),
    ("Scaling a model", {"distributed-inference"}, set()),
    (
        "https://github.com/sgl-project/sglang",
        {"inference-engines-serving", "tools-libraries"},
        set(),
    ),
    ("NCCL", {"distributed-inference", "tools-libraries"}, set()),
    ("TensorRT-LLM", {"inference-engines-serving"}, set()),
    # --- ai-engineering-awesome ------------------------------------------------------------
    ("CS229", {"courses-guides", "ml-foundations"}, set()),
    ("CSE223", {"courses-guides"}, set()),
    ("AI and memory wall", {"hardware-architecture"}, set()),
    ("Collective Communication for 100k+ GPUs", {"distributed-inference"}, set()),
    (
        "Online normalizer calculation for softmax",
        {"attention-memory", "cuda-gpu-kernels"},
        set(),
    ),
    ("Flash Attention", {"attention-memory"}, set()),
    ("Pre-training under infinite compute", {"training-at-scale"}, set()),
    ("Small Batch Size Training for Language Models", {"training-at-scale"}, set()),
    # "Accuracy-performance trade-offs in LLM quantization"
    ("Give Me BF16 or Give Me Death", {"quantization-compression"}, set()),
    # SEAL: a model that writes its own fine-tuning data
    ("Self-Adapting Language Models", {"post-training-fine-tuning"}, set()),
    ("AI engineer channel", {"reference-collections"}, set()),
    ("Performance metrics", {"benchmarking-profiling"}, set()),
    ("Profiling guide", {"benchmarking-profiling"}, set()),
    ("Self-attention / Multi-head attention", {"attention-memory"}, set()),
    ("Group Query Attention", {"attention-memory"}, set()),
    (
        "Paged Attention from First Principles: A View Inside vLLM",
        {"attention-memory", "inference-engines-serving"},
        set(),
    ),
    ("GEMM", {"gemm-precision"}, set()),
    (
        "W4A8 GEMM Kernel",
        {"gemm-precision", "cuda-gpu-kernels", "quantization-compression"},
        set(),
    ),
    ("MoE (Mixture of experts)", {"mixture-of-experts"}, set()),
    ("AWQ", {"quantization-compression"}, set()),
    ("Mixed precision training", {"gemm-precision"}, set()),
    (
        "Smol Training Playbook: The Secrets to Building World-Class LLMs",
        {"training-at-scale"},
        set(),
    ),
    ("Paper from Google", {"inference-optimization"}, set()),
    (
        "KVCache-centric disaggregated architecture",
        {"scheduling-routing", "attention-memory"},
        set(),
    ),
    ("CUTLASS", {"cuda-gpu-kernels"}, set()),
    (
        "FlexAttention using CuTE DSL",
        {"attention-memory", "compilers-dsls", "cuda-gpu-kernels"},
        set(),
    ),
    ("How To Scale Your Model", {"distributed-inference"}, set()),
    ("GPU MODE lecture notes", {"cuda-gpu-kernels"}, set()),
    # --- ai-inference-engineering ----------------------------------------------------------
    ("KV Cache in LLM Inference", {"attention-memory", "llm-inference-fundamentals"}, set()),
    ("Transformer Inference Arithmetic", {"llm-inference-fundamentals"}, set()),
    ("A Visual Guide to Quantization", {"quantization-compression"}, set()),
    ("How Do MoE Models Compare to Dense Models in Inference?", {"mixture-of-experts"}, set()),
    ("LLM Routing", {"scheduling-routing"}, set()),
    ("Defeating Nondeterminism in LLM Inference", {"llm-inference-fundamentals"}, set()),
    (
        "Hyperparameters are all you need: Using five-step inference for an optimal diffusion schedule",
        {"diffusion-generative"},
        set(),
    ),
    ("vLLM Architectural Deep Dive", {"inference-engines-serving"}, set()),
    (
        "Disaggregated Inference at Scale with PyTorch and vLLM",
        {"scheduling-routing", "inference-engines-serving"},
        set(),
    ),
    (
        "TensorRT-LLM: Combining Guided Decoding and Speculative Decoding",
        {"structured-output", "inference-optimization"},
        set(),
    ),
    # a vLLM bug in Mamba support: engines, and (its description says) Mamba architectures too
    ("One Token to Corrupt Them All: A vLLM Debugging Tale", {"inference-engines-serving"}, set()),
    ("Rotary Embeddings: A Relative Revolution", {"attention-memory"}, set()),
    (
        "Triton Flash Attention Kernel Walkthrough",
        {"attention-memory", "cuda-gpu-kernels"},
        set(),
    ),
    (
        "PQCache: Product Quantization for KV Cache Compression",
        {"attention-memory", "quantization-compression"},
        set(),
    ),
    (
        "Product Quantization: Compressing High-Dimensional Vectors by 97%",
        {"quantization-compression"},
        set(),
    ),
    ("MS-AMP: Microsoft Automatic Mixed Precision Library", {"gemm-precision"}, set()),
    ("BitNet: Official Inference Framework for 1-bit LLMs", {"quantization-compression"}, set()),
    (
        "How to Optimize a CUDA Matmul Kernel for cuBLAS-like Performance",
        {"cuda-gpu-kernels", "gemm-precision"},
        set(),
    ),
    (
        "Were RNNs All We Needed? A GPU Programming Perspective",
        {"model-architectures", "cuda-gpu-kernels"},
        set(),
    ),
    ("Outperforming cuBLAS on H100: a Worklog", {"cuda-gpu-kernels", "gemm-precision"}, set()),
    (
        "Learn by Doing: TorchInductor Reduction Kernels",
        {"compilers-dsls", "cuda-gpu-kernels"},
        set(),
    ),
    ("Guided Decoding Performance on vLLM and SGLang", {"structured-output"}, set()),
    ("UCCL: Efficient Communication Library for GPUs", {"distributed-inference"}, set()),
    (
        "DeepSeek R1 671B on AMD MI300X GPUs: Maximum Throughput",
        {"benchmarking-profiling", "hardware-architecture"},
        {"post-training-fine-tuning"},  # serving R1 is not training it
    ),
    (
        "Self-Supervised Reinforcement Learning and Patterns in Time",
        {"reinforcement-learning"},
        set(),
    ),
    (
        "LLaMA-Factory: Unified Efficient Fine-Tuning of 100+ LLMs & VLMs",
        {"post-training-fine-tuning", "tools-libraries"},
        set(),
    ),
    (
        "Inside the NVIDIA Rubin Platform: Six New Chips, One AI Supercomputer",
        {"hardware-architecture"},
        set(),
    ),
    ("Trinity Large: An Open 400B Sparse MoE Model", {"mixture-of-experts"}, set()),
    ("The Spatial Blindspot of Vision-Language Models", {"multimodal"}, set()),
    (
        "PRIME: Scalable Reinforcement Learning for LLMs",
        {"reinforcement-learning", "post-training-fine-tuning"},
        set(),
    ),
    ("Helion: Python-Embedded DSL for ML Kernels", {"compilers-dsls"}, set()),
    (
        "Confidential Compute for AI Inference with TEEs",
        {"security-confidential-inference"},
        set(),
    ),
    ("The Importance of Agent Harness in 2026", {"agents-tooling"}, set()),
    ("LMCache Storage ROI Calculator", {"production-inference"}, set()),
    ("FlashInfer-Bench", {"benchmarking-profiling"}, set()),
    (
        "MIT 6.5940: TinyML and Efficient Deep Learning Computing",
        {"courses-guides", "quantization-compression"},
        {"ml-foundations"},
    ),
    ("RoCEv2 for Deep Learning", {"distributed-inference"}, {"ml-foundations"}),
    ("Neural Network Quantization guide", {"quantization-compression"}, {"ml-foundations"}),
    (
        "GPU Performance Engineering Resources",
        {"benchmarking-profiling", "reference-collections"},
        set(),
    ),
    # --- future-blogs-to-write -------------------------------------------------------------
    # the DeepSeek-R1 paper (arXiv 2501.12948), also listed under "Papers to read"
    ("Deepseek stuff 4", {"post-training-fine-tuning"}, {"ml-foundations"}),
    ("Deepseek stuff 5", {"post-training-fine-tuning"}, set()),
    ("Deepseek stuff 3", {"post-training-fine-tuning", "reinforcement-learning"}, set()),
    ("Mamba", {"model-architectures"}, set()),
    ("Scaling laws", {"transformers-llm-basics"}, set()),
    ("Fine-tune lora on CPU", {"post-training-fine-tuning"}, set()),
    ("GPT in 60 lines", {"transformers-llm-basics"}, set()),
    ("Timeline and family tree", {"transformers-llm-basics"}, set()),
    ("Hugging Face blog: open-r1/update-3", {"post-training-fine-tuning"}, set()),
    ("GRPO in a few lines", {"post-training-fine-tuning", "reinforcement-learning"}, set()),
    ("Introduction to Cuda", {"cuda-gpu-kernels"}, set()),
    ("Triton Documentation", {"cuda-gpu-kernels", "compilers-dsls"}, set()),
    ("Understanding triton", {"compilers-dsls"}, set()),
    ("Beating cuBLASS blog", {"cuda-gpu-kernels"}, set()),
    ("tensara.org", {"cuda-gpu-kernels"}, set()),
    (
        "Teaching ai to write gpu code a deep dive into reinforcement fine tuning",
        {"post-training-fine-tuning", "cuda-gpu-kernels"},
        set(),
    ),
    (
        "Blog on qlora, bitsandbyte etc",
        {"quantization-compression", "post-training-fine-tuning"},
        set(),
    ),
    (
        "tips ons fine tuning qlora by sebastian",
        {"post-training-fine-tuning", "quantization-compression"},
        set(),
    ),
    ("QALora", {"quantization-compression", "post-training-fine-tuning"}, set()),
    ("Lora", {"post-training-fine-tuning"}, set()),
    ("4 bit flux", {"quantization-compression", "diffusion-generative"}, set()),
    ("Quanto flux inference", {"quantization-compression", "diffusion-generative"}, set()),
    # the HF docs' path names the transformers *library*, not the subject
    ("TorchAO", {"quantization-compression"}, {"transformers-llm-basics"}),
    ("Efficient training guide by HF", set(), {"transformers-llm-basics"}),
    ("Performance and scalability by hf", set(), {"transformers-llm-basics"}),
    ("TorchTitan", {"training-at-scale"}, set()),
    ("Meta blog on sharded training", {"training-at-scale", "distributed-inference"}, set()),
    ("Automatic Mixed Precision examples", {"gemm-precision"}, set()),
    ("Blog on hacking LLMS", {"security-confidential-inference"}, {"transformers-llm-basics"}),
    (
        "How to exploit large language models for good or bad",
        {"security-confidential-inference"},
        {"transformers-llm-basics"},
    ),
    (
        "Prompt hacking of large language models",
        {"security-confidential-inference"},
        {"transformers-llm-basics"},
    ),
    ("Novel universal bypass for all major llms", {"security-confidential-inference"}, set()),
    ("sesame.com", {"multimodal"}, set()),
    ("HF blog on building vlm from scratch", {"multimodal"}, set()),
    ("Paper on building a VLM", {"multimodal"}, set()),
    ("lil log blog on the topic", {"diffusion-generative"}, set()),
    ("Video gen model explosion", {"diffusion-generative"}, set()),
    ("immersivemath.com/ila", {"ml-foundations"}, set()),
    ("Mathematics for Machine Learning", {"ml-foundations", "courses-guides"}, set()),
    ("YouTube video fNk_zzaMoSs", {"ml-foundations"}, set()),  # 3Blue1Brown, linear algebra
    ("A guide to RL", {"reinforcement-learning"}, set()),
    ("gymnasium.farama.org", {"reinforcement-learning"}, set()),
    # DIAMOND: a diffusion world model that trains Atari agents, not LLM agent tooling
    ("RL training of gaming agents", {"reinforcement-learning"}, {"agents-tooling"}),
    ("webGL fundamentals", {"software-engineering"}, set()),
    ("mrdoob/three.js", {"software-engineering"}, set()),
    ("Tencent/Hunyuan3D-2", {"diffusion-generative"}, set()),  # 3D asset generation
    ("Neetcode", {"software-engineering", "interview-prep"}, set()),
    ("Build your own x", {"software-engineering"}, set()),
    ("distill.pub", {"reference-collections"}, set()),
    ("lilianweng.github.io", {"reference-collections"}, set()),
    ("lucidrains on GitHub", {"tools-libraries"}, set()),
    ("TabbyML/tabby", {"agents-tooling"}, set()),  # a self-hosted coding assistant
    ("Whitepaper agent companion", {"agents-tooling"}, set()),
    ("Foundations of Deep RL", {"reinforcement-learning"}, {"ml-foundations"}),
    (
        "Very Deep Convolutional Networks for Large-scale Image Recognition",
        {"multimodal"},
        set(),
    ),
    # Bahdanau et al.: where attention comes from
    (
        "Neural Machine Translation by Jointly Learning to Align and Translate",
        {"transformers-llm-basics"},
        set(),
    ),
    ("Large Language Diffusion Model", {"diffusion-generative"}, set()),
    ("Two decades of recommender systems at amazon", {"ml-foundations"}, set()),
    ("modelcontextprotocol.io/introduction", {"agents-tooling"}, set()),
    ("Understanding Deep Learning", {"ml-foundations", "courses-guides"}, set()),
    ("Build a Large Language Model", {"transformers-llm-basics", "courses-guides"}, set()),
    ("Professional CUDA C Programming", {"cuda-gpu-kernels", "courses-guides"}, set()),
    ("Deep Learning", {"ml-foundations"}, set()),
    ("Work on quantization and efficiency (llama.cpp style)", {"quantization-compression"}, set()),
    # --- ai-infra-field-notes (one resource per chapter) -----------------------------------
    ("Applications", {"diffusion-generative"}, set()),  # "Diffusion model acceleration"
    ("RL & Alignment", {"post-training-fine-tuning", "reinforcement-learning"}, set()),
    ("Kernel Agent", {"agents-tooling", "cuda-gpu-kernels"}, set()),
    ("Training Frameworks", {"training-at-scale"}, set()),
    ("MoE Optimization", {"mixture-of-experts"}, set()),
    ("Interview Prep", {"interview-prep"}, set()),
    ("DSL & Compiler", {"compilers-dsls"}, set()),
]


def resource_topics(objects) -> dict[str, list[set[str]]]:
    """Title → the topic slugs of each resource with that title (and the same for URLs)."""
    slugs = {
        o["fields"]["uuid"]: o["fields"]["slug"] for o in objects if o["model"] == "catalog.topic"
    }
    found: dict[str, list[set[str]]] = {}
    for o in objects:
        if o["model"] == "catalog.resource":
            fields = o["fields"]
            topics = {slugs[key[0]] for key in fields["topics"]}
            found.setdefault(fields["title"], []).append(topics)
            if fields["url"]:
                found.setdefault(fields["url"], []).append(topics)
    return found


def score(objects) -> tuple[int, int, list[str]]:
    """(right, checked, what was wrong) over the sample."""
    found = resource_topics(objects)
    right, checked, wrong = 0, 0, []
    for key, present, absent in SAMPLE:
        assert len(found.get(key, [])) == 1, f"{key!r} names {len(found.get(key, []))} resources"
        topics = found[key][0]
        for slug in present:
            checked += 1
            right += slug in topics
            if slug not in topics:
                wrong.append(f"{key}: missing {slug}")
        for slug in absent:
            checked += 1
            right += slug not in topics
            if slug in topics:
                wrong.append(f"{key}: wrongly under {slug}")
    return right, checked, wrong


@pytest.fixture(scope="module")
def fixture_objects():
    return json.loads(FIXTURE_PATH.read_text(encoding="utf-8"))


def test_the_sample_is_big_and_spread_over_the_five_guides():
    assert len(SAMPLE) >= 100
    assert sum(len(present) + len(absent) for _, present, absent in SAMPLE) >= 150


def test_at_least_95_percent_of_the_sampled_topic_assignments_are_right(fixture_objects):
    right, checked, wrong = score(fixture_objects)
    figure = f"topic spot check: {right}/{checked} = {right / checked:.1%} right"
    print(figure)  # pytest -s shows it; 227/233 = 97.4% when the sample was written
    assert right / checked >= REQUIRED, f"{figure}, below {REQUIRED:.0%}; wrong: {wrong}"


def plan(text: str):
    planner = _Planner()
    planner.add_guide(parse_guide(text), slug="g", title="G")
    return {r.title: set(r.topics) for r in planner.finish().resources}


def test_the_issues_named_cases():
    topics = plan(
        "# G\n## LLM Applications\n"
        "- [LangChain](https://github.com/langchain-ai/langchain) - Building applications with LLMs.\n"
        "- [LlamaIndex](https://github.com/run-llama/llama_index) - A data framework for LLM applications.\n"
        "- [DSPy](https://github.com/stanfordnlp/dspy) - Programming, not prompting, language models.\n"
        "## Math foundations\n"
        "- [QLoRA: Efficient Finetuning of Quantized LLMs](https://arxiv.org/abs/2305.14314)\n"
        "## Papers to read\n"
        "- [DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via Reinforcement Learning]"
        "(https://arxiv.org/abs/2501.12948)\n"
        "- [KV Cache in LLM Inference](https://pub.towardsai.net/kv-cache-in-llm-inference-7b904a2a6982)\n"
    )
    for name in ("LangChain", "LlamaIndex", "DSPy"):
        assert "diffusion-generative" not in topics[name], name
    r1 = topics[
        "DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via Reinforcement Learning"
    ]
    assert "ml-foundations" not in r1
    assert {"post-training-fine-tuning", "reinforcement-learning"} <= r1
    assert {"post-training-fine-tuning", "quantization-compression"} <= topics[
        "QLoRA: Efficient Finetuning of Quantized LLMs"
    ]
    assert {"attention-memory", "llm-inference-fundamentals"} <= topics["KV Cache in LLM Inference"]
