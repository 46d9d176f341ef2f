import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { projectFromPage } from './config';

const project = projectFromPage();
// The owner's "To Block setting" link in comment and Q&A opens the dashboard served beside this
// page; the SDK reads it from the same global the CDN script fills.
window.ReactionBlocks = { ...window.ReactionBlocks, dashboardUrl: location.origin };

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App project={project} />
  </StrictMode>,
);
