// An Atlas-like host: a dark shell with a navigator, a stage and a 375 px inspector that
// scrolls on its own; a lesson is a hash route (#<lesson id>, #<lesson id>/lab opens the lab
// modal). The host owns the URL and the learning progress: the element is told storage="none"
// and hands each answer over in an event; the host stores it under its own key and gives it
// back through the `progress` property.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type {
  PrefillTraceAnswerDetail,
  PrefillTraceErrorDetail,
  PrefillTraceLesson,
  PrefillTraceProgress,
  PrefillTraceReadyDetail,
  PrefillTraceScenarioChangeDetail,
  PrefillTraceTheme,
  PrefillTraceView,
} from '../../../../bindings/prefill-trace-lesson.js';

const LESSONS: Record<string, { name: string; file: string }> = {
  'prefill-resource-trace': {
    name: 'Prefill and prompt processing',
    file: '/prefill-trace/lesson-data/prefill-resource-trace-a76d037833bd69f7.json',
  },
  'out-of-order-cpu-pipeline': {
    name: 'Out-of-order CPU pipeline',
    file: '/lesson-data/out-of-order-cpu-pipeline.json',
  },
};
const PROGRESS_KEY = 'atlas-like:learning';

type HostEvent = { name: string; detail: unknown };
declare global {
  interface Window {
    __hostEvents: HostEvent[];
  }
}
window.__hostEvents = [];

function record(name: string, detail: unknown) {
  window.__hostEvents.push({ name, detail });
}

function parseHash(hash: string): { lesson: string; lab: boolean } {
  const [id = '', sub] = hash.replace(/^#/, '').split('/');
  return { lesson: id in LESSONS ? id : 'prefill-resource-trace', lab: sub === 'lab' };
}

function readProgress(): PrefillTraceProgress {
  try {
    return JSON.parse(localStorage.getItem(PROGRESS_KEY) ?? '{}') as PrefillTraceProgress;
  } catch {
    return {};
  }
}

export function App() {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  const [theme, setTheme] = useState<PrefillTraceTheme>('dark');
  const [inspectorView, setInspectorView] = useState<PrefillTraceView>('lesson');
  const [scenario, setScenario] = useState('');
  // Handed to each element once, when it mounts: later answers arrive through events.
  const initialProgress = useMemo(readProgress, []);
  const [answered, setAnswered] = useState(() => Object.keys(initialProgress).length);

  useEffect(() => {
    const onHash = () => setRoute(parseHash(location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const lesson = LESSONS[route.lesson];
  const onAnswer = (event: CustomEvent<PrefillTraceAnswerDetail>) => {
    const { questionKey, answer, correct } = event.detail;
    const saved = { ...readProgress(), [questionKey]: { answer, correct } };
    localStorage.setItem(PROGRESS_KEY, JSON.stringify(saved));
    setAnswered(Object.keys(saved).length);
    record(event.type, event.detail);
  };
  const onReady = (event: CustomEvent<PrefillTraceReadyDetail>) => record(event.type, event.detail);
  const onError = (event: CustomEvent<PrefillTraceErrorDetail>) => record(event.type, event.detail);
  const onScenarioChange = (event: CustomEvent<PrefillTraceScenarioChangeDetail>) => {
    record(event.type, event.detail);
    setScenario(JSON.stringify(event.detail.scenario));
  };
  // `progress` is a property, not an attribute: handed over once the element exists.
  // (A stable callback: React calls a new ref function again on every render.)
  const handBack = useCallback(
    (element: PrefillTraceLesson | null) => {
      if (element) element.progress = initialProgress;
    },
    [initialProgress],
  );
  const closeLab = () => {
    location.hash = `#${route.lesson}`;
  };

  return (
    <main className="atlas-shell">
      <header className="topbar">
        <strong>AI ATLAS</strong>
        <span className="edition">Atlas-like host</span>
        <span className="progress-count" data-testid="answered">
          {answered} answered
        </span>
        <button type="button" data-testid="theme" onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}>
          {theme === 'dark' ? 'Light lesson' : 'Dark lesson'}
        </button>
        <button type="button" data-testid="long-prompt" onClick={() => setScenario(JSON.stringify({ prompt_tokens: 8192 }))}>
          Long prompt
        </button>
      </header>
      <div className="workspace">
        <nav className="navigator" aria-label="Lessons">
          {Object.entries(LESSONS).map(([id, l]) => (
            <a key={id} href={`#${id}`} aria-current={id === route.lesson ? 'page' : undefined}>
              {l.name}
            </a>
          ))}
        </nav>
        <section className="stage" aria-label="Stage">
          <h1>{lesson.name}</h1>
          {/* As the Atlas's lab entry: only the prefill lesson has this lab. */}
          {route.lesson === 'prefill-resource-trace' && (
            <button type="button" data-testid="open-lab" onClick={() => (location.hash = `#${route.lesson}/lab`)}>
              Lab
            </button>
          )}
        </section>
        <aside className="inspector" aria-label="Lesson">
          <div className="tabs" role="tablist">
            <button type="button" role="tab" aria-selected={inspectorView === 'lesson'} onClick={() => setInspectorView('lesson')}>
              Learn
            </button>
            {route.lesson === 'prefill-resource-trace' && (
              <button type="button" role="tab" aria-selected={inspectorView === 'explorer'} onClick={() => setInspectorView('explorer')}>
                Explore
              </button>
            )}
          </div>
          <prefill-trace-lesson
            data-testid="inspector-lesson"
            lesson-src={lesson.file}
            view={route.lesson === 'prefill-resource-trace' ? inspectorView : 'lesson'}
            header="none"
            theme={theme}
            storage="none"
            scenario={scenario}
            ref={handBack}
            onprefill-trace-ready={onReady}
            onprefill-trace-error={onError}
            onprefill-trace-answer={onAnswer}
            onprefill-trace-scenario-change={onScenarioChange}
          />
        </aside>
      </div>
      {route.lab && route.lesson === 'prefill-resource-trace' && (
        <div className="modal-backdrop">
          <div className="atlas-modal" role="dialog" aria-modal="true" aria-labelledby="lab-title">
            <div className="modal-head">
              <h2 id="lab-title">The quantitative workbench</h2>
              <button type="button" data-testid="close-lab" onClick={closeLab}>
                Close
              </button>
            </div>
            <prefill-trace-lesson
              data-testid="lab-lesson"
              lesson-src={lesson.file}
              view="explorer"
              theme={theme}
              storage="none"
              scenario={scenario}
              ref={handBack}
              onprefill-trace-ready={onReady}
              onprefill-trace-error={onError}
              onprefill-trace-answer={onAnswer}
              onprefill-trace-scenario-change={onScenarioChange}
            />
          </div>
        </div>
      )}
      {/* The typings refuse a view the element does not have. */}
      {/* @ts-expect-error "sideways" is not a PrefillTraceView */}
      {false && <prefill-trace-lesson view="sideways" />}
    </main>
  );
}
