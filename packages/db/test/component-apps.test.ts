import { componentAppsContract } from '@cp/domain/testing';
import { describeEachBackend } from './support/backends.js';
import { experiencesSubjectOf } from './support/experiences-subject.js';

describeEachBackend('component apps', (db) => componentAppsContract(experiencesSubjectOf(db)));
