// Entry point: one App (connection + routes) rendered by Preact.
import { render } from 'preact';
import { App } from './app';
import { setLang, lang } from './i18n';
import { Shell } from './ui/Shell';
import { localizeFormChecks } from './ui/form_validity';
import './style.css';

const app = new App();
setLang(lang);
localizeFormChecks();
// Handle for the end-to-end tests and for debugging in the console (no secrets live here).
(window as unknown as { __xq: App }).__xq = app;
render(<Shell app={app} />, document.getElementById('app')!);
