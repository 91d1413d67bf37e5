/** The app itself, loaded and started by main.tsx once the boot requests have left. */
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

/**
 * `signedIn`: the boot's answer (boot.ts). The first paint is in the right language (a prefixed or
 * remembered locale is loaded before it) and shows the page without a Suspense fallback first (its
 * chunk has loaded: pages.tsx `loaded`).
 */
export async function startApp(signedIn: Promise<boolean>): Promise<void> {
  performance.mark('wb:app-start'); // the open's timeline (bench-editor)
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  const store = makeStore();
  // the session's queries take the boot's responses (bootRequests.ts); settings and plan start as
  // soon as the boot knows someone is signed in, not once React has rendered the user
  void store.dispatch(sessionApi.endpoints.getUser.initiate());
  void signedIn.then((yes) => {
    if (!yes) return;
    void store.dispatch(sessionApi.endpoints.getSettings.initiate());
    void store.dispatch(sessionApi.endpoints.getPlan.initiate());
  });
  const page = preloadPageAt(window.location.pathname);
  const initial = initialLocale(splitLocale(window.location.pathname).prefix);
  await Promise.all([page, initial === 'en' ? undefined : setLocale(initial).catch(() => undefined)]);
  performance.mark('wb:app-render');
  createRoot(root).render(
    <StrictMode>
      <Provider store={store}>
        <I18nextProvider i18n={i18n}>
          <App />
        </I18nextProvider>
      </Provider>
    </StrictMode>,
  );
}
