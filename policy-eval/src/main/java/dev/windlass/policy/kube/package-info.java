/**
 * What a Kubernetes API server (v1.34) requires of object metadata, with its own words: the formats of names, label keys
 * and values and annotation keys, and which rule a kind's name follows. Used by the parser, so that a name a server
 * would refuse is an error at its place before anything is planned, and by the sandbox, which refuses it as a real
 * server does (proven by the sandbox's RefusalContractIT against a real kube-apiserver).
 */
package dev.windlass.policy.kube;
