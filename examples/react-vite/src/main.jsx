// React 19 + Vite, no configuration: the lesson element's explorer with a scenario object
// (React 19 sets it as the element's property), and the engine in the same page; the two share
// one module, so the .wasm is downloaded once.
import { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import PrefillTrace from "prefill-trace";
import "prefill-trace/element";

const scenario = { model: "llama-3.1-8b", hardware: "h100-sxm", prompt_tokens: 4096 };

function App() {
  const [kvBytes, setKvBytes] = useState(null);
  const [theme, setTheme] = useState("light");
  useEffect(() => {
    PrefillTrace().then((engine) => {
      const result = engine.computeTrace(JSON.stringify(scenario));
      if (result.ok) setKvBytes(JSON.parse(result.json).totals.kv_cache.bytes);
    });
  }, []);
  return (
    <main>
      <h1>Prefill on an H100</h1>
      <p id="kv">{kvBytes === null ? "computing…" : `KV cache: ${kvBytes} bytes`}</p>
      <button id="theme" onClick={() => setTheme(theme === "light" ? "dark" : "light")}>Theme: {theme}</button>
      {/* An inline object, new on every render: the element keeps the reader's edits while the
          host's value stays equal (scenario is host-owned), and shows a different one. */}
      <prefill-trace-lesson view="explorer" storage="none" theme={theme} scenario={{ ...scenario }}
        onprefill-trace-ready={(event) => console.log("ready:", event.detail.lessonId)} />
    </main>
  );
}

createRoot(document.getElementById("root")).render(<App />);
