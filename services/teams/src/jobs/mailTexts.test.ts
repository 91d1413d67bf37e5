import { describe, expect, it } from '@jest/globals';
import { LOCALES } from '@wb/proto';
import { invitationMail, memberJoinedMail } from './mailTemplates';
import { MAIL_TEXTS } from './mailTexts';

const inv = { inviter: 'Olga <Owner>', team: 'Acme & Co', email: 'carl@example.com' };
const joined = { member: 'Carl', team: 'Acme & Co', email: 'carl@example.com' };

describe('teams mail texts', () => {
  it('exist for every interface language, each text filled and different from English where it is prose', () => {
    expect(Object.keys(MAIL_TEXTS).sort()).toEqual([...LOCALES].sort());
    for (const locale of LOCALES) {
      const t = MAIL_TEXTS[locale];
      for (const [key, value] of Object.entries(t)) {
        const text =
          typeof value === 'function'
            ? (value as (p: typeof inv & typeof joined) => string)({ ...inv, ...joined })
            : value;
        expect({ locale, key, empty: String(text).trim() === '' }).toEqual({ locale, key, empty: false });
      }
      if (locale !== 'en') expect(t.invitationAction).not.toBe(MAIL_TEXTS.en.invitationAction);
    }
  });

  it('put the inviter, the team, the address and the link in every language; HTML escapes names', () => {
    for (const locale of LOCALES) {
      const mail = invitationMail(locale, inv, 'http://app.test/join-team?token=abc');
      expect(mail.to).toBe('carl@example.com');
      for (const part of [inv.inviter, inv.team, inv.email, 'http://app.test/join-team?token=abc'])
        expect(mail.text).toContain(part);
      expect(mail.subject).toContain(inv.team);
      expect(mail.html).toContain('Olga &#60;Owner&#62;');
      expect(mail.html).not.toContain('<Owner>');
      const owner = memberJoinedMail(locale, 'olga@example.com', joined, 'http://app.test/settings/users');
      expect(owner.to).toBe('olga@example.com');
      expect(owner.text).toContain('http://app.test/settings/users');
      expect(owner.subject).toContain('Carl');
    }
  });
});
