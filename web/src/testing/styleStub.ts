// jest: stylesheets imported by components are irrelevant to behaviour
export {};
