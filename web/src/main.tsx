import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import { makeStore } from './app/store';
import { App } from './app/App';
import { isChunkLoadError, reloadForChunkError } from './app/chunkReload';
import { splitLocale } from './app/routes';
import { browserLocale, i18n, setLocale, storedLocale } from './i18n/i18n';
import { isLoggedIn, sessionApi } from './features/session/sessionApi';
import { preloadPageAt } from './app/pages';
import './ui/styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// a stale chunk after a deployment: one reload, at most every 5 minutes
window.addEventListener('vite:preloadError', (event) => {
  if (reloadForChunkError(localStorage, Date.now(), () => window.location.reload())) event.preventDefault();
});
window.addEventListener('unhandledrejection', (event) => {
  if (isChunkLoadError(event.reason)) reloadForChunkError(localStorage, Date.now(), () => window.location.reload());
});

const store = makeStore();
// the user is asked for at once, in parallel with the first locale and page chunk
const user = store.dispatch(sessionApi.endpoints.getUser.initiate());
preloadPageAt(
  window.location.pathname,
  user.then(
    (r) => isLoggedIn(r.data),
    () => false,
  ),
);

/** The first paint is in the right language: a prefixed or remembered locale is loaded before it. */
async function start() {
  const initial = splitLocale(window.location.pathname).prefix ?? storedLocale() ?? browserLocale(navigator.languages);
  if (initial !== 'en') await setLocale(initial).catch(() => undefined);
  createRoot(root!).render(
    <StrictMode>
      <Provider store={store}>
        <I18nextProvider i18n={i18n}>
          <App />
        </I18nextProvider>
      </Provider>
    </StrictMode>,
  );
}
void start();
