"""The counting stage's compiled modules or their twins (``_engine.choice`` decides which)."""

from turbobleu._engine.choice import loaded, on_first_use

kernel = loaded("count._kernel")
packer = on_first_use("count._pack", "Token-id inputs -> CSR buffers")
ref_tables = on_first_use("count._ref_tables", "Prepared reference groups")
self_table = on_first_use("count._self_table", "Self-BLEU tables")
pairwise_kernel = on_first_use("count._pairwise", "Pairwise BLEU matrices")
