/**
 * The course invitation mail in the ten interface languages (spec §1), written in the invitee's
 * language (their account's setting, else the one the teacher's app uses). mailTexts.test.ts checks
 * every language has every text.
 */
import type { Locale } from '@wb/proto';

export interface InvitationParams {
  teacher: string;
  course: string;
  email: string;
}

export interface MailTexts {
  hello: string;
  someone: string;
  subject(p: InvitationParams): string;
  intro(p: InvitationParams): string;
  howTo(p: InvitationParams): string;
  action: string;
  ignore: string;
  footer: string;
}

export const MAIL_TEXTS: Record<Locale, MailTexts> = {
  en: {
    hello: 'Hello,',
    someone: 'Someone',
    subject: (p) => `${p.teacher} invited you to the course ${p.course}`,
    intro: (p) => `${p.teacher} invited you to the course “${p.course}” on Whiteboard.`,
    howTo: (p) =>
      `Sign in or sign up with this address (${p.email}), then open the link to join. It works for 30 days.`,
    action: 'Join the course',
    ignore: 'If you did not expect this invitation, you can ignore this mail.',
    footer: 'Whiteboard: the online whiteboard for teams and teaching.',
  },
  de: {
    hello: 'Hallo,',
    someone: 'Jemand',
    subject: (p) => `${p.teacher} hat Sie zum Kurs ${p.course} eingeladen`,
    intro: (p) => `${p.teacher} hat Sie zum Kurs „${p.course}“ auf Whiteboard eingeladen.`,
    howTo: (p) =>
      `Melden Sie sich mit dieser Adresse (${p.email}) an oder registrieren Sie sich damit, und öffnen Sie dann den Link. Er ist 30 Tage gültig.`,
    action: 'Dem Kurs beitreten',
    ignore: 'Falls Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.',
    footer: 'Whiteboard: das Online-Whiteboard für Teams und Unterricht.',
  },
  fr: {
    hello: 'Bonjour,',
    someone: 'Quelqu’un',
    subject: (p) => `${p.teacher} vous invite au cours ${p.course}`,
    intro: (p) => `${p.teacher} vous invite au cours « ${p.course} » sur Whiteboard.`,
    howTo: (p) =>
      `Connectez-vous ou inscrivez-vous avec cette adresse (${p.email}), puis ouvrez le lien pour rejoindre le cours. Il est valable 30 jours.`,
    action: 'Rejoindre le cours',
    ignore: 'Si vous n’attendiez pas cette invitation, vous pouvez ignorer ce message.',
    footer: 'Whiteboard : le tableau blanc en ligne pour les équipes et l’enseignement.',
  },
  it: {
    hello: 'Ciao,',
    someone: 'Qualcuno',
    subject: (p) => `${p.teacher} ti ha invitato al corso ${p.course}`,
    intro: (p) => `${p.teacher} ti ha invitato al corso “${p.course}” su Whiteboard.`,
    howTo: (p) =>
      `Accedi o registrati con questo indirizzo (${p.email}), poi apri il link per partecipare. Vale 30 giorni.`,
    action: 'Partecipa al corso',
    ignore: 'Se non ti aspettavi questo invito, puoi ignorare questa email.',
    footer: 'Whiteboard: la lavagna online per team e didattica.',
  },
  tr: {
    hello: 'Merhaba,',
    someone: 'Birisi',
    subject: (p) => `${p.teacher} sizi ${p.course} kursuna davet etti`,
    intro: (p) => `${p.teacher} sizi Whiteboard’daki “${p.course}” kursuna davet etti.`,
    howTo: (p) =>
      `Bu adresle (${p.email}) giriş yapın veya kaydolun, ardından katılmak için bağlantıyı açın. Bağlantı 30 gün geçerlidir.`,
    action: 'Kursa katıl',
    ignore: 'Bu daveti beklemiyorsanız bu e-postayı yok sayabilirsiniz.',
    footer: 'Whiteboard: ekipler ve eğitim için çevrimiçi beyaz tahta.',
  },
  uk: {
    hello: 'Вітаємо,',
    someone: 'Хтось',
    subject: (p) => `${p.teacher} запрошує вас на курс ${p.course}`,
    intro: (p) => `${p.teacher} запрошує вас на курс «${p.course}» у Whiteboard.`,
    howTo: (p) =>
      `Увійдіть або зареєструйтеся з цією адресою (${p.email}), потім відкрийте посилання. Воно дійсне 30 днів.`,
    action: 'Приєднатися до курсу',
    ignore: 'Якщо ви не очікували цього запрошення, просто проігноруйте цей лист.',
    footer: 'Whiteboard: онлайн-дошка для команд і навчання.',
  },
  es: {
    hello: 'Hola:',
    someone: 'Alguien',
    subject: (p) => `${p.teacher} te ha invitado al curso ${p.course}`,
    intro: (p) => `${p.teacher} te ha invitado al curso «${p.course}» en Whiteboard.`,
    howTo: (p) =>
      `Inicia sesión o regístrate con esta dirección (${p.email}) y abre el enlace para unirte. Es válido 30 días.`,
    action: 'Unirse al curso',
    ignore: 'Si no esperabas esta invitación, puedes ignorar este correo.',
    footer: 'Whiteboard: la pizarra en línea para equipos y enseñanza.',
  },
  pl: {
    hello: 'Dzień dobry,',
    someone: 'Ktoś',
    subject: (p) => `${p.teacher} zaprasza Cię na kurs ${p.course}`,
    intro: (p) => `${p.teacher} zaprasza Cię na kurs „${p.course}” w Whiteboard.`,
    howTo: (p) =>
      `Zaloguj się lub zarejestruj tym adresem (${p.email}), a potem otwórz link, aby dołączyć. Jest ważny 30 dni.`,
    action: 'Dołącz do kursu',
    ignore: 'Jeśli nie spodziewasz się tego zaproszenia, zignoruj tę wiadomość.',
    footer: 'Whiteboard: tablica online dla zespołów i nauczania.',
  },
  et: {
    hello: 'Tere,',
    someone: 'Keegi',
    subject: (p) => `${p.teacher} kutsus sind kursusele ${p.course}`,
    intro: (p) => `${p.teacher} kutsus sind Whiteboardis kursusele „${p.course}”.`,
    howTo: (p) =>
      `Logi sisse või registreeru selle aadressiga (${p.email}) ja ava liitumiseks link. See kehtib 30 päeva.`,
    action: 'Liitu kursusega',
    ignore: 'Kui sa seda kutset ei oodanud, võid selle kirja tähelepanuta jätta.',
    footer: 'Whiteboard: veebitahvel meeskondadele ja õpetamiseks.',
  },
  ru: {
    hello: 'Здравствуйте,',
    someone: 'Кто-то',
    subject: (p) => `${p.teacher} приглашает вас на курс ${p.course}`,
    intro: (p) => `${p.teacher} приглашает вас на курс «${p.course}» в Whiteboard.`,
    howTo: (p) =>
      `Войдите или зарегистрируйтесь с этим адресом (${p.email}), затем откройте ссылку. Она действует 30 дней.`,
    action: 'Присоединиться к курсу',
    ignore: 'Если вы не ожидали этого приглашения, просто проигнорируйте это письмо.',
    footer: 'Whiteboard: онлайн-доска для команд и обучения.',
  },
};
