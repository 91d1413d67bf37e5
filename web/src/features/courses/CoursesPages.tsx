import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/pageProps';
import { LocalNavLink } from '../../app/prefix';
import { EmptyState, Page } from '../../ui/EmptyState';

function Tabs({ items }: { items: { to: string; label: string }[] }) {
  return (
    <nav className="tabs">
      <ul>
        {items.map((i) => (
          <li key={i.to}>
            <LocalNavLink to={i.to}>{i.label}</LocalNavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function CoursesPage({ match }: PageProps) {
  const { t } = useTranslation();
  const teach = match.route.page === 'coursesTeach';
  return (
    <Page title={t('title.courses')}>
      <Tabs
        items={[
          { to: '/courses/teach', label: t('courses.teach') },
          { to: '/courses/learn', label: t('courses.learn') },
        ]}
      />
      <EmptyState title={teach ? t('courses.emptyTeach') : t('courses.emptyLearn')} />
    </Page>
  );
}

export function CoursePage({ match }: PageProps) {
  const { t } = useTranslation();
  const id = match.params.courseId!;
  const participants = match.route.page === 'courseParticipants';
  return (
    <Page title={t('title.course')}>
      <Tabs
        items={[
          { to: `/courses/${id}/content`, label: t('courses.content') },
          { to: `/courses/${id}/participants`, label: t('courses.participants') },
        ]}
      />
      <EmptyState title={participants ? t('courses.noParticipants') : t('courses.noLessons')} />
    </Page>
  );
}

export function InsightsPage({ match }: PageProps) {
  const { t } = useTranslation();
  return (
    <Page title={t('title.insights')}>
      <EmptyState title={match.params.participantKey ? t('insights.participantEmpty') : t('insights.empty')} />
    </Page>
  );
}

export function AssignmentsPage({ match }: PageProps) {
  const { t } = useTranslation();
  const created = match.route.page === 'assignmentsCreated';
  return (
    <Page title={t('title.assignments')}>
      <Tabs
        items={[
          { to: '/assignments/created', label: t('assignments.created') },
          { to: '/assignments/assigned', label: t('assignments.assigned') },
        ]}
      />
      <EmptyState title={created ? t('assignments.emptyCreated') : t('assignments.emptyAssigned')} />
    </Page>
  );
}

export function AssignmentPage({ match }: PageProps) {
  const { t } = useTranslation();
  const id = match.params.id!;
  return (
    <Page title={t('title.assignment')}>
      <Tabs
        items={(['edit', 'preview', 'assign', 'submissions'] as const).map((tab) => ({
          to: `/assignments/${id}/${tab}`,
          label: t(`assignments.${tab}`),
        }))}
      />
      <EmptyState title={t('assignments.notAvailable')} />
    </Page>
  );
}

export function AssignmentResponsePage() {
  const { t } = useTranslation();
  return (
    <Page title={t('title.assignment')}>
      <EmptyState title={t('assignments.notAvailable')} />
    </Page>
  );
}

export function TutorsPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('tutors.heading')}>
      <EmptyState title={t('tutors.empty')} />
    </Page>
  );
}
