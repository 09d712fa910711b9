// An engine error in a sentence for people, still naming the field. The engine's message starts
// with the JSON path of the value it rejects ("/batch: must be an integer, not string"); the
// sentence names the field as its control is labelled ("Requests per batch must be a whole
// number") and the engine's own message follows it, so nothing it said is lost.

import { groupedDecimal } from '../format.js';

/** The fields' names for people, by the engine's JSON path. */
const FIELD_WORDS = {
  '/model': 'Model',
  '/hardware': 'Accelerator',
  '/precision': 'Precision',
  '/prompt_tokens': 'Prompt tokens',
  '/batch': 'Requests per batch',
  '/chunk_tokens': 'Chunk size',
  '/attention': 'Attention',
  '/arrival_rate': 'Arrival rate',
  '/timing': 'Timing',
  '/stack': 'Software stack',
  '/attention_kernel': 'Attention kernel',
  '/tensor_parallel': 'Devices (tensor parallel)',
  '/model/layers': 'Layers',
  '/model/d_model': 'Model width',
  '/model/query_heads': 'Query heads',
  '/model/kv_heads': 'Key/value heads',
  '/model/head_dim': 'Head width',
  '/model/d_ff': 'MLP width',
  '/model/mlp': 'MLP kind',
  '/model/vocab': 'Vocabulary',
  '/model/experts': 'Experts',
  '/model/active_experts': 'Active experts',
};

const number = (text) => (/^\d+$/.test(text) ? groupedDecimal(Number(text)) : text);

/** The sentence for `message`, or the message itself when it does not start with a known path. */
export function plainError(message) {
  const text = String(message);
  const match = /^(\/[^:\s]*): (.*)$/s.exec(text);
  const field = match && FIELD_WORDS[match[1]];
  if (!field) return text;
  const said = match[2];
  let sentence;
  let m;
  if ((m = /^must be an integer from (\S+) to (\S+)$/.exec(said))) {
    sentence = `${field} must be a whole number from ${number(m[1])} to ${number(m[2])}.`;
  } else if ((m = /^must be an integer, not (\w+)$/.exec(said))) {
    sentence = m[1] === 'null' ? `${field} is empty: it must be a whole number.` : `${field} must be a whole number${m[1] === 'number' ? ', without a fraction' : ''}.`;
  } else if ((m = /^must be 0 or from (\S+) to (\S+)$/.exec(said))) {
    sentence = `${field} must be 0 or between ${number(m[1])} and ${number(m[2])}.`;
  } else if ((m = /^must be from (\S+) to (\S+)$/.exec(said))) {
    sentence = `${field} must be between ${number(m[1])} and ${number(m[2])}.`;
  } else if ((m = /^must be a number, not (\w+)$/.exec(said))) {
    sentence = m[1] === 'null' ? `${field} is empty: it must be a number.` : `${field} must be a number.`;
  } else {
    sentence = `${field}: this value is not accepted.`;
  }
  return `${sentence} (${text})`;
}
