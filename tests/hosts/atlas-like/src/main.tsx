import { createRoot } from 'react-dom/client';
import './element';
import { App } from './App';

createRoot(document.getElementById('root')!).render(<App />);
