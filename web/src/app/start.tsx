/** The app itself, loaded by main.tsx once the boot requests have left. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import { i18n, initialLocale, setLocale } from '../i18n/i18n';
import { sessionApi } from '../features/session/sessionApi';
import { App } from './App';
import { preloadPageAt } from './pages';
import { splitLocale } from './routes';
import { makeStore } from './store';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const store = makeStore();
// the user (its boot response, when it came: bootRequests.ts), in parallel with the first locale
// and the page's chunk
void store.dispatch(sessionApi.endpoints.getUser.initiate());
const page = preloadPageAt(window.location.pathname);

/**
 * The first paint is in the right language (a prefixed or remembered locale is loaded before it)
 * and shows the page without a Suspense fallback first (its chunk has loaded: pages.tsx `loaded`).
 */
async function start() {
  const initial = initialLocale(splitLocale(window.location.pathname).prefix);
  await Promise.all([page, initial === 'en' ? undefined : setLocale(initial).catch(() => undefined)]);
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
