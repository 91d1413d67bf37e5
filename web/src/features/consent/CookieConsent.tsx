import { useEffect, useId, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { followChrome, freeSpot, obstacleBoxes } from '../../ui/toastPlacement';
import { useTranslation } from 'react-i18next';
import {
  acceptAll,
  acceptSome,
  CONSENT_BANNER_DELAY_MS,
  consentMode,
  loadConsent,
  pushConsent,
  readPrivacySignals,
  rejectAll,
  saveConsent,
  type ConsentCategory,
  type ConsentChoice,
} from './consent';
import { Button } from '../../ui/kit/Button';
import { Checkbox } from '../../ui/kit/Checkbox';

const OPTIONAL: ConsentCategory[] = ['preferences', 'analytics', 'marketing'];

/**
 * The banner's place while it is shown (issue 26 #15): the lowest spot that covers none of the
 * page's chrome (a board's tool bar, zoom corner, top bar, panels; the header), followed as that
 * chrome appears or moves; the bottom-left corner when nothing is in the way or nothing is free.
 */
function useFreePlace(visible: boolean, ref: RefObject<HTMLElement | null>) {
  const [place, setPlace] = useState<{ left: number; top: number } | null>(null);
  useLayoutEffect(() => {
    if (!visible) return;
    return followChrome(() => {
      const el = ref.current;
      if (!el) return;
      const size = { width: el.offsetWidth, height: el.offsetHeight };
      const viewport = { width: window.innerWidth, height: window.innerHeight };
      const next = freeSpot(viewport, size, obstacleBoxes(document, '.consent, .toasts'));
      setPlace((prev) => (prev?.left === next?.left && prev?.top === next?.top ? prev : next));
    });
  }, [visible, ref]);
  return place;
}

/** Slides in after 1 s when no choice is stored; the choice is stored and sent to the data layer. */
export function CookieConsent() {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const [showOptions, setShowOptions] = useState(false);
  const [selected, setSelected] = useState<Partial<ConsentChoice>>({});
  const titleId = useId();
  // read once per page
  const [signals] = useState(() => readPrivacySignals(navigator, window as { doNotTrack?: string }));
  const box = useRef<HTMLElement>(null);
  const place = useFreePlace(visible, box);

  useEffect(() => {
    const stored = loadConsent(localStorage);
    pushConsent(window, 'default', consentMode(stored, signals));
    if (stored) return;
    const timer = setTimeout(() => setVisible(true), CONSENT_BANNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [signals]);

  if (!visible) return null;
  const decide = (choice: ConsentChoice) => {
    saveConsent(localStorage, choice);
    pushConsent(window, 'update', consentMode(choice, signals));
    setVisible(false);
  };
  const tracked = (c: ConsentCategory) => signals.doNotTrack && (c === 'analytics' || c === 'marketing');
  return (
    <section
      ref={box}
      className="consent"
      aria-labelledby={titleId}
      data-toast-avoid=""
      style={place ? { left: place.left, top: place.top, bottom: 'auto' } : undefined}
    >
      <h2 id={titleId}>{t('consent.title')}</h2>
      <p>{t('consent.text')}</p>
      {showOptions ? (
        <fieldset className="consent-options">
          <legend className="sr-only">{t('consent.options')}</legend>
          <Checkbox checked disabled label={t('consent.necessary')} />
          {OPTIONAL.map((c) => (
            <Checkbox
              key={c}
              label={t(`consent.${c}`)}
              checked={!tracked(c) && selected[c] === true}
              disabled={tracked(c)}
              onChange={(on) => setSelected({ ...selected, [c]: on })}
            />
          ))}
          {signals.doNotTrack ? <p className="muted">{t('consent.dnt')}</p> : null}
        </fieldset>
      ) : null}
      <div className="consent-actions">
        {!showOptions ? (
          <Button onClick={() => setShowOptions(true)}>{t('consent.options')}</Button>
        ) : (
          <Button onClick={() => decide(acceptSome(selected))}>{t('consent.acceptSome')}</Button>
        )}
        <Button onClick={() => decide(rejectAll())}>{t('consent.rejectAll')}</Button>
        <Button variant="primary" onClick={() => decide(acceptAll())}>
          {t('consent.acceptAll')}
        </Button>
      </div>
    </section>
  );
}
