import type { ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from './kit/Avatar';

/**
 * The account button: the kit Avatar and the name. Its accessible name is its visible text
 * followed by "Account menu" (WCAG 2.5.3 label in name); on narrow screens only the avatar shows.
 * The menu's trigger (AccountMenu, which adds the press and aria props) and, until that loads, its
 * stand-in in Header.
 */
export function AccountButton({
  name,
  userId,
  ...rest
}: { name: string; userId: number } & ComponentPropsWithRef<'button'>) {
  const { t } = useTranslation();
  return (
    <button type="button" className="account-button" {...rest}>
      <Avatar name={name} userId={userId} size="sm" />
      <span className="user-name">{name}</span> <span className="sr-only">{t('nav.userMenu')}</span>
    </button>
  );
}
