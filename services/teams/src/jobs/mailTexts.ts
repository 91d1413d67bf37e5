/**
 * Every text of the teams mails, in the ten interface languages (spec §1), in this one file. The
 * invitation is written in the invitee's language (their account's setting when they have one,
 * else the language the owner uses), the "member joined" mail in the owner's.
 * `mailTexts.test.ts` checks that every language has every text.
 */
import type { Locale } from '@wb/proto';

export interface InvitationParams {
  inviter: string;
  team: string;
  email: string;
}
export interface JoinedParams {
  member: string;
  team: string;
  email: string;
}

export interface MailTexts {
  hello: string;
  /** stands in for a name that is not known (a terminated account) */
  someone: string;
  invitationSubject(p: InvitationParams): string;
  invitationIntro(p: InvitationParams): string;
  invitationHowTo(p: InvitationParams): string;
  invitationAction: string;
  invitationIgnore: string;
  joinedSubject(p: JoinedParams): string;
  joinedBody(p: JoinedParams): string;
  joinedAction: string;
  footer: string;
}

export const MAIL_TEXTS: Record<Locale, MailTexts> = {
  en: {
    hello: 'Hello,',
    someone: 'Someone',
    invitationSubject: (p) => `${p.inviter} invited you to the team ${p.team} on Whiteboard`,
    invitationIntro: (p) =>
      `${p.inviter} invited you to join the team “${p.team}” on Whiteboard. As a member you get the team’s plan.`,
    invitationHowTo: (p) => `Sign in or sign up with this address (${p.email}), then open the link to join.`,
    invitationAction: 'Join the team',
    invitationIgnore: 'If you did not expect this invitation, you can ignore this mail.',
    joinedSubject: (p) => `${p.member} joined your team ${p.team}`,
    joinedBody: (p) => `${p.member} (${p.email}) accepted your invitation and now holds a licence in “${p.team}”.`,
    joinedAction: 'Manage your team',
    footer: 'Whiteboard: the online whiteboard for teams and teaching.',
  },
  de: {
    hello: 'Hallo,',
    someone: 'Jemand',
    invitationSubject: (p) => `${p.inviter} hat Sie in das Team ${p.team} auf Whiteboard eingeladen`,
    invitationIntro: (p) =>
      `${p.inviter} hat Sie eingeladen, dem Team „${p.team}“ auf Whiteboard beizutreten. Als Mitglied erhalten Sie den Tarif des Teams.`,
    invitationHowTo: (p) =>
      `Melden Sie sich mit dieser Adresse (${p.email}) an oder registrieren Sie sich damit, und öffnen Sie dann den Link, um beizutreten.`,
    invitationAction: 'Dem Team beitreten',
    invitationIgnore: 'Falls Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.',
    joinedSubject: (p) => `${p.member} ist Ihrem Team ${p.team} beigetreten`,
    joinedBody: (p) =>
      `${p.member} (${p.email}) hat Ihre Einladung angenommen und hat jetzt eine Lizenz in „${p.team}“.`,
    joinedAction: 'Team verwalten',
    footer: 'Whiteboard: das Online-Whiteboard für Teams und Unterricht.',
  },
  fr: {
    hello: 'Bonjour,',
    someone: 'Quelqu’un',
    invitationSubject: (p) => `${p.inviter} vous invite à rejoindre l’équipe ${p.team} sur Whiteboard`,
    invitationIntro: (p) =>
      `${p.inviter} vous invite à rejoindre l’équipe « ${p.team} » sur Whiteboard. En tant que membre, vous bénéficiez de l’offre de l’équipe.`,
    invitationHowTo: (p) =>
      `Connectez-vous ou inscrivez-vous avec cette adresse (${p.email}), puis ouvrez le lien pour rejoindre l’équipe.`,
    invitationAction: 'Rejoindre l’équipe',
    invitationIgnore: 'Si vous n’attendiez pas cette invitation, vous pouvez ignorer ce message.',
    joinedSubject: (p) => `${p.member} a rejoint votre équipe ${p.team}`,
    joinedBody: (p) =>
      `${p.member} (${p.email}) a accepté votre invitation et dispose maintenant d’une licence dans « ${p.team} ».`,
    joinedAction: 'Gérer votre équipe',
    footer: 'Whiteboard : le tableau blanc en ligne pour les équipes et l’enseignement.',
  },
  it: {
    hello: 'Ciao,',
    someone: 'Qualcuno',
    invitationSubject: (p) => `${p.inviter} ti ha invitato nel team ${p.team} su Whiteboard`,
    invitationIntro: (p) =>
      `${p.inviter} ti ha invitato a unirti al team “${p.team}” su Whiteboard. Come membro ottieni il piano del team.`,
    invitationHowTo: (p) => `Accedi o registrati con questo indirizzo (${p.email}), poi apri il link per unirti.`,
    invitationAction: 'Unisciti al team',
    invitationIgnore: 'Se non ti aspettavi questo invito, puoi ignorare questa email.',
    joinedSubject: (p) => `${p.member} si è unito al tuo team ${p.team}`,
    joinedBody: (p) => `${p.member} (${p.email}) ha accettato il tuo invito e ora ha una licenza in “${p.team}”.`,
    joinedAction: 'Gestisci il tuo team',
    footer: 'Whiteboard: la lavagna online per team e insegnamento.',
  },
  tr: {
    hello: 'Merhaba,',
    someone: 'Birisi',
    invitationSubject: (p) => `${p.inviter} sizi Whiteboard'daki ${p.team} ekibine davet etti`,
    invitationIntro: (p) =>
      `${p.inviter} sizi Whiteboard'daki “${p.team}” ekibine katılmaya davet etti. Ekip üyesi olarak ekibin planından yararlanırsınız.`,
    invitationHowTo: (p) =>
      `Bu adresle (${p.email}) giriş yapın veya kaydolun, ardından katılmak için bağlantıyı açın.`,
    invitationAction: 'Ekibe katıl',
    invitationIgnore: 'Bu daveti beklemiyorsanız bu e-postayı yok sayabilirsiniz.',
    joinedSubject: (p) => `${p.member} ${p.team} ekibinize katıldı`,
    joinedBody: (p) =>
      `${p.member} (${p.email}) davetinizi kabul etti ve artık “${p.team}” ekibinde bir lisansa sahip.`,
    joinedAction: 'Ekibinizi yönetin',
    footer: 'Whiteboard: ekipler ve eğitim için çevrim içi beyaz tahta.',
  },
  uk: {
    hello: 'Вітаємо!',
    someone: 'Хтось',
    invitationSubject: (p) => `${p.inviter} запрошує вас до команди ${p.team} у Whiteboard`,
    invitationIntro: (p) =>
      `${p.inviter} запрошує вас приєднатися до команди «${p.team}» у Whiteboard. Як учасник ви отримаєте тариф команди.`,
    invitationHowTo: (p) =>
      `Увійдіть або зареєструйтеся з цією адресою (${p.email}), а потім відкрийте посилання, щоб приєднатися.`,
    invitationAction: 'Приєднатися до команди',
    invitationIgnore: 'Якщо ви не очікували цього запрошення, просто проігноруйте цей лист.',
    joinedSubject: (p) => `${p.member} тепер у вашій команді ${p.team}`,
    joinedBody: (p) => `${p.member} (${p.email}) прийняв(-ла) ваше запрошення і тепер має ліцензію в «${p.team}».`,
    joinedAction: 'Керувати командою',
    footer: 'Whiteboard: онлайн-дошка для команд і навчання.',
  },
  es: {
    hello: 'Hola:',
    someone: 'Alguien',
    invitationSubject: (p) => `${p.inviter} te ha invitado al equipo ${p.team} en Whiteboard`,
    invitationIntro: (p) =>
      `${p.inviter} te ha invitado a unirte al equipo «${p.team}» en Whiteboard. Como miembro, obtienes el plan del equipo.`,
    invitationHowTo: (p) => `Inicia sesión o regístrate con esta dirección (${p.email}) y abre el enlace para unirte.`,
    invitationAction: 'Unirme al equipo',
    invitationIgnore: 'Si no esperabas esta invitación, puedes ignorar este correo.',
    joinedSubject: (p) => `${p.member} se ha unido a tu equipo ${p.team}`,
    joinedBody: (p) => `${p.member} (${p.email}) ha aceptado tu invitación y ya tiene una licencia en «${p.team}».`,
    joinedAction: 'Gestionar tu equipo',
    footer: 'Whiteboard: la pizarra en línea para equipos y enseñanza.',
  },
  pl: {
    hello: 'Dzień dobry,',
    someone: 'Ktoś',
    invitationSubject: (p) => `${p.inviter} zaprasza Cię do zespołu ${p.team} w Whiteboard`,
    invitationIntro: (p) =>
      `${p.inviter} zaprasza Cię do dołączenia do zespołu „${p.team}” w Whiteboard. Jako członek zespołu otrzymujesz jego plan.`,
    invitationHowTo: (p) =>
      `Zaloguj się lub zarejestruj, używając tego adresu (${p.email}), a następnie otwórz link, aby dołączyć.`,
    invitationAction: 'Dołącz do zespołu',
    invitationIgnore: 'Jeśli nie spodziewasz się tego zaproszenia, zignoruj tę wiadomość.',
    joinedSubject: (p) => `${p.member} jest teraz w Twoim zespole ${p.team}`,
    joinedBody: (p) =>
      `${p.member} (${p.email}) przyjmuje Twoje zaproszenie i ma teraz licencję w zespole „${p.team}”.`,
    joinedAction: 'Zarządzaj zespołem',
    footer: 'Whiteboard: tablica online dla zespołów i nauczania.',
  },
  et: {
    hello: 'Tere!',
    someone: 'Keegi',
    invitationSubject: (p) => `${p.inviter} kutsus teid Whiteboardis meeskonda ${p.team}`,
    invitationIntro: (p) =>
      `${p.inviter} kutsus teid liituma Whiteboardi meeskonnaga „${p.team}“. Liikmena saate meeskonna paketi.`,
    invitationHowTo: (p) => `Logige sisse või registreeruge selle aadressiga (${p.email}) ja avage liitumiseks link.`,
    invitationAction: 'Liitu meeskonnaga',
    invitationIgnore: 'Kui te seda kutset ei oodanud, võite selle kirja tähelepanuta jätta.',
    joinedSubject: (p) => `${p.member} liitus teie meeskonnaga ${p.team}`,
    joinedBody: (p) =>
      `${p.member} (${p.email}) võttis teie kutse vastu ja tal on nüüd litsents meeskonnas „${p.team}“.`,
    joinedAction: 'Halda meeskonda',
    footer: 'Whiteboard: veebitahvel meeskondadele ja õpetamiseks.',
  },
  ru: {
    hello: 'Здравствуйте!',
    someone: 'Кто-то',
    invitationSubject: (p) => `${p.inviter} приглашает вас в команду ${p.team} в Whiteboard`,
    invitationIntro: (p) =>
      `${p.inviter} приглашает вас присоединиться к команде «${p.team}» в Whiteboard. Как участник вы получите тариф команды.`,
    invitationHowTo: (p) =>
      `Войдите или зарегистрируйтесь с этим адресом (${p.email}), затем откройте ссылку, чтобы присоединиться.`,
    invitationAction: 'Присоединиться к команде',
    invitationIgnore: 'Если вы не ожидали этого приглашения, просто проигнорируйте это письмо.',
    joinedSubject: (p) => `${p.member} теперь в вашей команде ${p.team}`,
    joinedBody: (p) =>
      `${p.member} (${p.email}) принял(а) ваше приглашение и теперь имеет лицензию в команде «${p.team}».`,
    joinedAction: 'Управлять командой',
    footer: 'Whiteboard: онлайн-доска для команд и обучения.',
  },
};
