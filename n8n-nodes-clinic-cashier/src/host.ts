/**
 * n8n as the core's host (lib/host.ts): its rules, and the words the core's help and messages use for its things,
 * as n8n 2.41's editor names them (a workflow, its Executions list, unpublishing and publishing it: its words for
 * deactivating and activating). The seam hands
 * it to the core in `bundle.meta.host`; the nodes render the core's help with it when they build their properties.
 */
import { defineHost } from '../../lib/host';

export const N8N = defineHost({
  name: 'n8n',
  replaysFailedTriggers: true,
  words: {
    flow: 'workflow',
    flows: 'workflows',
    theFlowAr: 'سير العمل',
    thisFlowAr: 'سير العمل هذا',
    flowTimezoneAr: 'المنطقة الزمنية لسير العمل',
    history: 'the execution log',
    timezoneSetting: 'Workflow settings → Timezone, or n8n’s GENERIC_TIMEZONE',
    // src/times.ts reads a time without an offset in the workflow's timezone; n8n does not read "tomorrow".
    offsetlessExamples: 'such as 2026-11-24 10:30',
    // A plain date passes unchanged (src/times.ts): the clinic reads it as the day it names.
    offsetlessRead: 'A time without an offset is read in the workflow’s timezone (a date is sent as it is)',
    // n8n hands a date it cannot read over as it is, and the app refuses it: the margin is only a margin.
    unreadableDateHelp: '',
    unreadableDate: { en: '.', ar: '.' },
    replayRun: {
      en: 'Run this execution again from the workflow’s Executions list.',
      ar: 'أعد تشغيل هذا التنفيذ من قائمة التنفيذات في سير العمل.',
    },
    autoReplay: {
      en: 'The node’s Retry On Fail setting runs it again by itself.',
      ar: 'يعيدها إعداد Retry On Fail في العقدة تلقائيًا.',
    },
    // n8n does not retry by itself: the node's Retry On Fail setting does.
    retrySoon: {
      en: 'try again shortly (the node’s Retry On Fail setting retries by itself).',
      ar: 'حاول مجددًا بعد قليل (إعداد Retry On Fail في العقدة يعيد المحاولة تلقائيًا).',
    },
    curliesRefused: { en: 'which the app does not send', ar: 'ولا يرسل التطبيق ذلك' },
    reactivate: { en: 'unpublish and publish the workflow', ar: 'ألغِ نشر سير العمل وانشره' },
    activateAgain: { en: 'publish the workflow again', ar: 'انشر سير العمل من جديد' },
    orphanDeleted: {
      en: '(the account owner deletes it in the back office’s developers area)',
      ar: '(يحذفه مالك الحساب من قسم المطورين في المكتب الخلفي)',
    },
    turnOffUnused: {
      en: 'Unpublish workflows you no longer use',
      ar: 'ألغِ نشر مسارات العمل غير المستخدمة',
    },
    // Poll Times sets how far apart two polls are; the app allows up to the slowest.
    pollInterval: (slowest) => ({
      en: `The app lets polls be up to ${slowest} minutes apart (Poll Times)`,
      ar: `يسمح التطبيق بأن تتباعد الفحوص حتى ${slowest} دقيقة (Poll Times)`,
    }),
  },
});
