import { useTranslation } from 'react-i18next';
import { LocalLink } from '../app/prefix';

/** Help and feature links only for visitors; compact when logged in. */
export function Footer({ loggedIn, onShortcuts }: { loggedIn: boolean; onShortcuts: () => void }) {
  const { t } = useTranslation();
  return (
    <footer className={loggedIn ? 'footer compact' : 'footer'}>
      <nav aria-label={t('footer.label')}>
        <ul>
          {!loggedIn ? (
            <>
              <li>
                <LocalLink to="/help/center">{t('footer.help')}</LocalLink>
              </li>
              <li>
                <LocalLink to="/features">{t('footer.features')}</LocalLink>
              </li>
            </>
          ) : null}
          <li>
            <LocalLink to="/terms">{t('footer.terms')}</LocalLink>
          </li>
          <li>
            <LocalLink to="/privacy">{t('footer.privacy')}</LocalLink>
          </li>
          <li>
            <LocalLink to="/contact">{t('footer.contact')}</LocalLink>
          </li>
          <li>
            <button type="button" className="link" onClick={onShortcuts}>
              {t('footer.shortcuts')}
            </button>
          </li>
        </ul>
      </nav>
      {!loggedIn ? <p className="muted">{t('footer.claim')}</p> : null}
    </footer>
  );
}
