/** The dashboard's folder views (spec §2) and the board list keys they map to (spec §4). */
export const FOLDER_VIEWS = [
  { key: 'all', to: '/dashboard/boards/all', label: 'dashboard.all' },
  { key: 'owned', to: '/dashboard/boards/owned', label: 'dashboard.owned' },
  { key: 'shared', to: '/dashboard/boards/shared', label: 'dashboard.shared' },
  { key: 'unsorted', to: '/dashboard/boards/unsorted', label: 'dashboard.unsorted' },
  { key: 'trashed', to: '/dashboard/boards/trashed', label: 'dashboard.trashed' },
  { key: 'assignments', to: '/assignments/created', label: 'dashboard.assignments' },
  { key: 'assigned', to: '/assignments/assigned', label: 'dashboard.assigned' },
  { key: 'files', to: '/files', label: 'dashboard.files' },
] as const;
