/**
 * The files calls of spec §7 as RTK Query endpoints. Uploads go through `uploadFile` (it needs
 * upload progress, which fetch cannot give); once one finishes the list is invalidated.
 */
import { DOC_ID_PATTERN, type DocumentDto } from '@wb/proto';
import { api } from '../../app/api';

const withTags = api.enhanceEndpoints({ addTagTypes: ['Docs'] });

export const filesApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    getDocs: build.query<DocumentDto[], void>({
      query: () => 'api/docs',
      providesTags: ['Docs'],
    }),
    /** null: nobody stored these bytes (or the id is not a content hash at all) */
    getDoc: build.query<DocumentDto | null, string>({
      queryFn: async (id, store, extra, baseQuery) => {
        if (!DOC_ID_PATTERN.test(id)) return { data: null };
        const result = await baseQuery(`api/docs/${id}`);
        if (result.error) return { error: result.error };
        return { data: (result.data ?? null) as DocumentDto | null };
      },
      providesTags: ['Docs'],
    }),
    deleteDocs: build.mutation<{ ids: string[] }, string[]>({
      query: (ids) => ({ url: 'api/docs/delete', method: 'POST', body: { ids } }),
      invalidatesTags: ['Docs'],
    }),
  }),
});

export const { useGetDocsQuery, useGetDocQuery, useDeleteDocsMutation } = filesApi;

/** After an upload elsewhere (board drawer, files page): lists refetch. */
export const invalidateDocs = () => filesApi.util.invalidateTags(['Docs']);

/** Where the original bytes are downloaded (the gateway answers with Content-Disposition). */
export const originalUrl = (id: string) => `/api/docs/${id}/original`;
