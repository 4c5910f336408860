import { experiencesContract, rolloutsContract } from '@cp/domain/testing';
import { describeEachBackend } from './support/backends.js';
import { experiencesSubjectOf } from './support/experiences-subject.js';

describeEachBackend('experiences', (db) => experiencesContract(experiencesSubjectOf(db)));
describeEachBackend('rollouts', (db) => rolloutsContract(experiencesSubjectOf(db)));
