// @ts-check
// "Check your understanding": a native radio group in a form, so Tab, the arrow keys, Space and
// Enter work without custom key handling. The verdict comes from the engine, never from the
// page comparing indices itself.

import { h } from './dom.js';

/**
 * An option's text; a blank one (the contract allows it) is named by its place, so its radio
 * button still has an accessible name and the reader can tell it from the others.
 * @param {string} text
 * @param {number} index
 */
function optionText(text, index) {
  return text.trim() ? text : `Option ${index + 1} (blank)`;
}

/**
 * The radio buttons of a quiz's options (one group per quiz: `name` is `<idPrefix>-choice`).
 * @param {string[]} options
 * @param {string} idPrefix  unique per quiz on the page
 */
export function optionLabels(options, idPrefix) {
  return options.map((text, index) =>
    h(
      'label',
      { class: 'option' },
      h('input', { type: 'radio', name: `${idPrefix}-choice`, value: String(index) }),
      h('span', { class: text.trim() ? 'option-text' : 'option-text option-text--blank' }, optionText(text, index)),
    ),
  );
}

/**
 * A quiz form: the question (a heading of `level`) over `answerArea`, the "Check answer" button
 * and the feedback area, which announces the verdict (showVerdict).
 * @param {object} parts
 * @param {string} parts.idPrefix  unique per quiz on the page
 * @param {string} parts.question
 * @param {Node} parts.answerArea
 * @param {'h3'|'h4'} [parts.level='h3']
 * @param {Record<string, string>} [parts.attributes]  the form's class and data attributes
 * @returns {HTMLFormElement}
 */
export function quizShell({ idPrefix, question, answerArea, level = 'h3', attributes = { class: 'quiz' } }) {
  const questionId = `${idPrefix}-question`;
  return /** @type {HTMLFormElement} */ (h(
    'form',
    { ...attributes, 'aria-labelledby': questionId, novalidate: true },
    h('fieldset', {}, h('legend', {}, h(level, { id: questionId }, question)), answerArea),
    h('button', { type: 'submit', class: 'button' }, 'Check answer'),
    h('div', { class: 'feedback', id: `${idPrefix}-feedback`, role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' }),
  ));
}

/**
 * Shows the engine's verdict in a quiz's feedback area — the same for the published checks and
 * the generated ones: "Correct" or "Not quite", the right answer (when it can be named) and the
 * engine's reasoning; or, when the engine could not check the answer, why.
 * @param {Element} feedback
 * @param {{ok: boolean, error?: string, correct?: boolean, explanation?: string}} result
 * @param {string|undefined} answerText  the right answer, as the reader should see it
 */
export function showVerdict(feedback, result, answerText) {
  if (!result.ok) {
    feedback.replaceChildren(h('p', { class: 'verdict verdict--error' }, 'The engine could not check this answer.'), h('p', {}, result.error));
    return;
  }
  feedback.replaceChildren(
    h('p', { class: `verdict verdict--${result.correct ? 'correct' : 'incorrect'}` }, result.correct ? 'Correct' : 'Not quite'),
    // No answer to name: no paragraph (replaceChildren would write a null as the text "null").
    ...(answerText === undefined ? [] : [h('p', {}, h('span', { class: 'label' }, 'Answer'), ' ', answerText)]),
    h('p', {}, h('span', { class: 'label' }, 'Reasoning'), ' ', result.explanation),
  );
}

/**
 * The quiz form of `check`, not yet answerable (see wireQuiz): its question, its options as a
 * radio group, the "Check answer" button and the feedback area.
 * @param {{question: string, options: string[]}} check
 * @param {string} idPrefix  unique per quiz on the page
 */
export function buildQuizForm(check, idPrefix) {
  return quizShell({ idPrefix, question: check.question, answerArea: h('div', { class: 'options' }, optionLabels(check.options, idPrefix)) });
}

/**
 * @param {{question: string, options: string[]}} check
 * @param {string} idPrefix  unique per quiz on the page
 * @param {(choice: number) => {ok: boolean, error: string, correct: boolean,
 *          correctIndex: number, explanation: string}} onCheck
 * @param {(choice: number, correct: boolean) => void} [onAnswered]  after the engine's verdict
 */
export function quizForm(check, idPrefix, onCheck, onAnswered = () => {}) {
  return wireQuiz(buildQuizForm(check, idPrefix), check, onCheck, onAnswered);
}

/**
 * Makes a form built by buildQuizForm (here or at build time, see prerendered.js) answerable:
 * a submit asks the engine (`onCheck`) and shows its verdict in the feedback area.
 * @param {HTMLFormElement} form
 * @param {{question: string, options: string[]}} check
 * @param {(choice: number) => {ok: boolean, error: string, correct: boolean, correctIndex: number, explanation: string}} onCheck
 * @param {(choice: number, correct: boolean) => void} [onAnswered]
 */
export function wireQuiz(form, check, onCheck, onAnswered = () => {}) {
  const options = [...form.querySelectorAll('label.option')];
  const feedback = /** @type {HTMLElement} */ (form.querySelector('.feedback'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const picked = /** @type {HTMLInputElement | null} */ (form.querySelector('input[type="radio"]:checked'));
    for (const label of options) label.removeAttribute('data-result');
    if (!picked) {
      feedback.replaceChildren(h('p', {}, 'Choose one of the answers first.'));
      return;
    }
    const choice = Number(picked.value);
    const result = onCheck(choice);
    if (result.ok) {
      options[choice].setAttribute('data-result', result.correct ? 'correct' : 'incorrect');
      onAnswered(choice, result.correct);
    }
    const answerText = result.ok ? check.options[result.correctIndex] : undefined;
    showVerdict(feedback, result, answerText === undefined ? undefined : optionText(answerText, result.correctIndex));
  });

  return form;
}

/**
 * Selects option `choice` of a quiz form and checks it, as if the reader had (saved progress).
 * @param {HTMLFormElement} form
 * @param {number} choice
 */
export function answerQuiz(form, choice) {
  const input = /** @type {HTMLInputElement | null} */ (form.querySelector(`input[type="radio"][value="${Number(choice)}"]`));
  if (!input) return;
  input.checked = true;
  form.requestSubmit();
}
