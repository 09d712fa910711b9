#include "trace/device_shard.hpp"

#include <algorithm>

namespace prefill_trace {

double parameter_count(const ModelShape& m) {
  const double d = static_cast<double>(m.d_model);
  const double attention = d * static_cast<double>(m.query_heads * m.head_dim) * 2 +
                           d * static_cast<double>(2 * m.kv_heads * m.head_dim);
  const double mlp = static_cast<double>(m.experts) * (m.mlp == MlpKind::gated ? 3 : 2) * d *
                         static_cast<double>(m.d_ff) +
                     (m.experts > 1 ? d * static_cast<double>(m.experts) : 0);
  const double per_layer = attention + mlp + 2 * d;  // two norm gains
  const double embeddings = static_cast<double>(m.vocab) * d * (m.tied_embeddings ? 1 : 2);
  return static_cast<double>(m.layers) * per_layer + embeddings + d;  // + final norm
}

ModelShape device_shard(const ModelShape& model, int64_t devices) {
  ModelShape shard = model;
  if (devices == 1) return shard;
  shard.query_heads = model.query_heads / devices;
  shard.kv_heads = std::max<int64_t>(1, model.kv_heads / devices);
  shard.d_ff = model.d_ff / devices;
  shard.vocab = (model.vocab + devices - 1) / devices;
  return shard;
}

double parameters_per_device(const ModelShape& model, int64_t devices) {
  if (devices == 1) return parameter_count(model);
  const ModelShape shard = device_shard(model, devices);
  const double d = static_cast<double>(model.d_model);
  // The shard's own count has ⌈V/N⌉ rows for both tables; the embedding table is replicated.
  const double lm_head_rows = model.tied_embeddings ? 0 : static_cast<double>(shard.vocab);
  return parameter_count(shard) -
         static_cast<double>(shard.vocab) * d * (model.tied_embeddings ? 1 : 2) +
         static_cast<double>(model.vocab) * d + lm_head_rows * d;
}

double DeviceShard::weight_bytes(const ByteWidths& widths) const {
  // The embedding table is replicated on every device; the LM head is split by vocabulary rows.
  const double table_parameters = static_cast<double>(whole.d_model) *
                                  (static_cast<double>(whole.vocab) +
                                   (whole.tied_embeddings ? 0 : static_cast<double>(shard.vocab)));
  return parameters_per_device(whole, devices) * widths.weights +
         table_parameters * (widths.tables - widths.weights);
}

}  // namespace prefill_trace
